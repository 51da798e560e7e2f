import { externalIdsOf } from '../evidence/model.ts';
import { aggregateAnswers, type AnswerMetrics, type AnswerScore } from './answer-metrics.ts';
import { valueFound } from './values.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import type { EvaluationQuestion } from './questions.ts';

/**
 * Retrieval metrics, per question and aggregated:
 * - doi@1 / doi@5 (Recall-PID@K): the answer paper (by DOI, or by corpus paper id when it has no DOI) is among the
 *   top 1 / 5 papers; MRR over the same ranking (0 when not retrieved). Over `doi` questions.
 * - recall@5 (paragraph): the gold evidence paragraph is in the top 5 evidence items (a chunk counts when it
 *   contains it). Over answerable questions that name a gold paragraph.
 * - value@3: the gold value (number + unit, compared in canonical units; as text when it has no unit we know)
 *   is stated in the top 3 evidence items or is the extracted value answer. Over `value` questions.
 * - abstain rate on unanswerable questions, false-abstention rate on answerable ones.
 * - latency p50 / p95 in milliseconds.
 */
export interface QuestionScore {
  questionId: string;
  type: EvaluationQuestion['type'];
  source: string | null;
  rank: number | null;
  doiAt1: boolean | null;
  doiAt5: boolean | null;
  paragraphAt5: boolean | null;
  valueAt3: boolean | null;
  abstained: boolean;
  latencyMs: number;
  /** With `--answer`: how the extractive answer built on this retrieval scores. */
  answer?: AnswerScore;
}

export interface PipelineMetrics {
  questions: number;
  answerable: number;
  doi_at_1: number | null;
  doi_at_5: number | null;
  mrr: number | null;
  recall_at_5_paragraph: number | null;
  value_at_3: number | null;
  abstain_rate_unanswerable: number | null;
  false_abstain_rate: number | null;
  latency_ms: { p50: number; p95: number };
  /** With `--answer`. */
  answers?: AnswerMetrics;
}

const norm = (s: string | null | undefined) => (s ?? '').toLowerCase().trim();

export function scoreQuestion(
  q: EvaluationQuestion,
  r: Pick<RetrievalResult, 'papers' | 'evidence' | 'value' | 'abstention' | 'latencyMs'>,
  paperSourceIds: Map<string, string | null>,
): QuestionScore {
  const answerable = q.type !== 'unanswerable';
  let rank: number | null = null;
  if (answerable) {
    const idx = r.papers.findIndex(
      (p) => (q.answer_doi && norm(p.doi) === norm(q.answer_doi)) || (q.answer_paper_id && p.paperId && paperSourceIds.get(p.paperId) === q.answer_paper_id),
    );
    rank = idx >= 0 ? idx + 1 : null;
  }
  const goldParagraph = q.evidence?.paragraph_id ?? null;
  const paragraphAt5 = answerable && goldParagraph ? r.evidence.slice(0, 5).some((e) => externalIdsOf(e).includes(goldParagraph)) : null;
  const valueAt3 =
    q.type === 'value' && q.answer_value
      ? valueFound(q.answer_value, [...r.evidence.slice(0, 3).map((e) => e.text), ...(r.value ? [r.value.text] : [])])
      : null;
  return {
    questionId: q.id,
    type: q.type,
    source: q.source ?? null,
    rank,
    doiAt1: q.type === 'doi' ? rank === 1 : null,
    doiAt5: q.type === 'doi' ? rank !== null && rank <= 5 : null,
    paragraphAt5,
    valueAt3,
    abstained: r.abstention.abstain,
    latencyMs: r.latencyMs,
  };
}

const rate = (xs: (boolean | null)[]): number | null => {
  const v = xs.filter((x): x is boolean => x !== null);
  return v.length ? v.filter(Boolean).length / v.length : null;
};

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function aggregate(scores: QuestionScore[]): PipelineMetrics {
  const doi = scores.filter((s) => s.type === 'doi');
  const answerable = scores.filter((s) => s.type !== 'unanswerable');
  const unanswerable = scores.filter((s) => s.type === 'unanswerable');
  const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
  const answered = scores.filter((s): s is QuestionScore & { answer: AnswerScore } => !!s.answer);
  return {
    questions: scores.length,
    answerable: answerable.length,
    doi_at_1: round(rate(doi.map((s) => s.doiAt1))),
    doi_at_5: round(rate(doi.map((s) => s.doiAt5))),
    mrr: doi.length ? round(doi.reduce((a, s) => a + (s.rank ? 1 / s.rank : 0), 0) / doi.length) : null,
    recall_at_5_paragraph: round(rate(answerable.map((s) => s.paragraphAt5))),
    value_at_3: round(rate(scores.map((s) => s.valueAt3))),
    abstain_rate_unanswerable: round(rate(unanswerable.map((s) => s.abstained))),
    false_abstain_rate: round(rate(answerable.map((s) => s.abstained))),
    latency_ms: {
      p50:
        Math.round(
          percentile(
            scores.map((s) => s.latencyMs),
            50,
          ) * 10,
        ) / 10,
      p95:
        Math.round(
          percentile(
            scores.map((s) => s.latencyMs),
            95,
          ) * 10,
        ) / 10,
    },
    ...(answered.length ? { answers: aggregateAnswers(answered) } : {}),
  };
}
