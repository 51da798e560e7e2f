import { answerText, type Answer } from '../answer/types.ts';
import type { EvaluationQuestion } from './questions.ts';
import type { JudgeScore } from './judge-metrics.ts';
import { valueFound } from './values.ts';
import { auroc, expectedCalibrationError } from './calibration.ts';
import { isFrame } from '../answer/shapes/types.ts';

/**
 * Answer metrics, per question and aggregated (`npm run eval -- --answer`):
 * - answer_value_acc: value questions whose gold value (canonical number + unit) the answer states; for a value
 *   answer only its lead sentence counts (the quoted evidence sentence after it would credit any value it contains);
 * - citation_validity: the share of citations that name evidence retrieved for that question;
 * - claim_support_rate: the share of citing sentences verified as supported by what they cite;
 * - answer_abstain_rate_unanswerable and answer_false_abstain_rate: abstention of the answer, not of retrieval;
 * - median_prompt_tokens: for answers a model wrote;
 * - value_confidence: over the value questions answered, how often the value is right against the mean confidence
 *   shown, and the expected calibration error between the two (the confidence is read as the chance it is right);
 * - with a judge model, the means of its faithfulness / answer relevance / context relevance (judge-metrics.ts)
 *   over the questions that have one, with the judgements attempted and missing.
 */
export interface AnswerScore {
  valueCorrect: boolean | null;
  citations: number;
  validCitations: number;
  citingSentences: number;
  supportedSentences: number;
  abstained: boolean;
  promptTokens: number | null;
  /** The confidence the answer showed (0 for a refusal). */
  confidence: number;
  /** Whether the answer given is right as the question's gold knows it (see `answerRight`); null when refused or unknown. */
  right: boolean | null;
  judge?: JudgeScore;
}

export interface AnswerMetrics {
  answer_value_acc: number | null;
  citation_validity: number | null;
  claim_support_rate: number | null;
  answer_abstain_rate_unanswerable: number | null;
  answer_false_abstain_rate: number | null;
  median_prompt_tokens: number | null;
  value_confidence: { answered: number; right: number; mean_confidence: number; ece: number } | null;
  /**
   * Every answer given whose right or wrong the gold knows (any shape): how often right against the mean confidence
   * shown, the calibration error, and how well the confidence separates right from wrong (AUROC).
   */
  answer_confidence: { answered: number; right: number; mean_confidence: number; ece: number; auroc: number | null } | null;
  /** The questions the corpus does not answer (near misses among them): refused, answered below 0.5, answered at 0.5 or more. */
  unanswerable_outcomes: { refused: number; below_half: number; above_half: number } | null;
  judge?: {
    faithfulness: number | null;
    answer_relevance: number | null;
    context_relevance: number | null;
    attempted: number;
    missing: number;
  };
}

/**
 * Right, as a development set knows it: wrong whenever the corpus does not answer the question; else the gold value
 * stated (a value question), else the gold paper cited first (by DOI, or by the corpus's own id, `sourceOf`).
 * Null when the gold says nothing to check.
 */
export function answerRight(q: EvaluationQuestion, a: Answer, sourceOf: (paperId: string) => string | null | undefined): boolean | null {
  if (q.type === 'unanswerable') return false;
  const value = valueRight(q, a);
  if (value !== null) return value;
  if (!q.answer_doi && !q.answer_paper_id) return null;
  const first = a.evidence[0];
  if (!first) return false;
  return (
    (!!q.answer_doi && !!first.doi && first.doi.toLowerCase() === q.answer_doi.toLowerCase()) ||
    (!!q.answer_paper_id && !!first.paperId && sourceOf(first.paperId) === q.answer_paper_id)
  );
}

function valueRight(q: EvaluationQuestion, a: Answer): boolean | null {
  if (q.type !== 'value' || !q.answer_value) return null;
  // A value answer states its value first; a ranking names its leader first: that line is what is graded.
  const stated = a.shape === 'value' || a.shape === 'ranking' ? (a.sentences[0]?.text ?? '') : answerText({ sentences: a.sentences, evidence: a.evidence });
  return !a.abstention.abstain && valueFound(q.answer_value, [stated]);
}

export function scoreAnswer(q: EvaluationQuestion, a: Answer, sourceOf: (paperId: string) => string | null | undefined = () => null): AnswerScore {
  const retrieved = new Set(a.evidence.map((e) => e.id));
  const citations = a.sentences.flatMap((s) => s.citations);
  // Framing lines ("“Title” reports:") are not claims.
  const citing = a.sentences.filter((s) => s.citations.length > 0 && !isFrame(s));
  return {
    valueCorrect: valueRight(q, a),
    citations: citations.length,
    validCitations: citations.filter((c) => retrieved.has(c)).length,
    citingSentences: citing.length,
    supportedSentences: citing.filter((s) => s.verdict === 'supported').length,
    abstained: a.abstention.abstain,
    promptTokens: a.tokens?.prompt ?? null,
    confidence: a.confidence,
    right: a.abstention.abstain || a.shape === 'abstain' ? null : answerRight(q, a, sourceOf),
  };
}

export function aggregateAnswers(scores: { type: EvaluationQuestion['type']; answer: AnswerScore }[]): AnswerMetrics {
  const share = (num: number, den: number) => (den > 0 ? Math.round((num / den) * 1000) / 1000 : null);
  const sum = (f: (s: AnswerScore) => number) => scores.reduce((t, s) => t + f(s.answer), 0);
  const value = scores.filter((s) => s.answer.valueCorrect !== null);
  const unanswerable = scores.filter((s) => s.type === 'unanswerable');
  const answerable = scores.filter((s) => s.type !== 'unanswerable');
  const judged = scores.map((s) => s.answer.judge).filter((j): j is JudgeScore => !!j);
  return {
    answer_value_acc: share(value.filter((s) => s.answer.valueCorrect).length, value.length),
    citation_validity: share(
      sum((s) => s.validCitations),
      sum((s) => s.citations),
    ),
    claim_support_rate: share(
      sum((s) => s.supportedSentences),
      sum((s) => s.citingSentences),
    ),
    answer_abstain_rate_unanswerable: share(unanswerable.filter((s) => s.answer.abstained).length, unanswerable.length),
    answer_false_abstain_rate: share(answerable.filter((s) => s.answer.abstained).length, answerable.length),
    median_prompt_tokens: median(scores.map((s) => s.answer.promptTokens).filter((x): x is number => x !== null)),
    value_confidence: valueConfidence(value.filter((s) => !s.answer.abstained).map((s) => s.answer)),
    answer_confidence: answerConfidence(scores.map((s) => s.answer).filter((a) => !a.abstained && a.right !== null)),
    unanswerable_outcomes: unanswerable.length
      ? {
          refused: share(unanswerable.filter((s) => s.answer.abstained).length, unanswerable.length)!,
          below_half: share(unanswerable.filter((s) => !s.answer.abstained && s.answer.confidence < 0.5).length, unanswerable.length)!,
          above_half: share(unanswerable.filter((s) => !s.answer.abstained && s.answer.confidence >= 0.5).length, unanswerable.length)!,
        }
      : null,
    ...(judged.length ? { judge: judgeMeans(judged) } : {}),
  };
}

function valueConfidence(answered: AnswerScore[]): AnswerMetrics['value_confidence'] {
  if (answered.length === 0) return null;
  const points = answered.map((a) => ({ confidence: a.confidence, correct: a.valueCorrect === true }));
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    answered: answered.length,
    right: round3(points.filter((p) => p.correct).length / points.length),
    mean_confidence: round3(points.reduce((t, p) => t + p.confidence, 0) / points.length),
    ece: round3(expectedCalibrationError(points)),
  };
}

function answerConfidence(answered: AnswerScore[]): AnswerMetrics['answer_confidence'] {
  if (answered.length === 0) return null;
  const points = answered.map((a) => ({ confidence: a.confidence, correct: a.right === true }));
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  const separation = auroc(points);
  return {
    answered: answered.length,
    right: round3(points.filter((p) => p.correct).length / points.length),
    mean_confidence: round3(points.reduce((t, p) => t + p.confidence, 0) / points.length),
    ece: round3(expectedCalibrationError(points)),
    auroc: separation === null ? null : round3(separation),
  };
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

function judgeMeans(js: JudgeScore[]): NonNullable<AnswerMetrics['judge']> {
  const mean = (f: (j: JudgeScore) => number | null) => {
    const xs = js.map(f).filter((x): x is number => x !== null);
    return xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000 : null;
  };
  return {
    faithfulness: mean((j) => j.faithfulness),
    answer_relevance: mean((j) => j.answerRelevance),
    context_relevance: mean((j) => j.contextRelevance),
    attempted: js.reduce((t, j) => t + j.attempted, 0),
    missing: js.reduce((t, j) => t + j.missing, 0),
  };
}
