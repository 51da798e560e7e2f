import { ANSWER_K, type AnswerOptions, prepareAnswer } from '../answer/answer.ts';
import { extractiveAnswer } from '../answer/extractive.ts';
import type { Answer } from '../answer/types.ts';
import type { Evidence } from '../evidence/model.ts';
import { scoreAnswer } from './answer-metrics.ts';
import type { JudgeScore } from './judge-metrics.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import { retrieve } from '../pipelines/run.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import type { Reformulator } from '../retrieval/reformulate.ts';
import type { EvaluationQuestion } from './questions.ts';
import { aggregate, scoreQuestion, type PipelineMetrics, type QuestionScore } from './retrieval-metrics.ts';

/**
 * Runs every question through every requested pipeline on one index and scores it. The summary follows the
 * CLI's JSON contract: {"questions": n, "pipelines": {name: metrics + by_type + by_source}}.
 */
export interface PipelineSummary extends PipelineMetrics {
  by_type: Record<string, PipelineMetrics>;
  by_source: Record<string, PipelineMetrics>;
}

export interface EvaluationSummary {
  questions: number;
  pipelines: Record<string, PipelineSummary>;
}

export interface EvaluatedQuestion {
  pipeline: PipelineName;
  question: EvaluationQuestion;
  score: QuestionScore;
  detail: ResultDetail;
}

/** What the drill-down page shows for one question: gold, what came back, the trace. */
export interface ResultDetail {
  gold: { doi: string | null; paperId: string | null; value: string | null; paragraphId: string | null; evidence: string | null };
  papers: { paperId: string | null; doi: string | null; title: string | null; score: number; sourceId: string | null }[];
  /** The top five items, text cut at 1,200 characters. */
  evidence: Evidence[];
  value: RetrievalResult['value'];
  abstention: RetrievalResult['abstention'];
  trace: RetrievalResult['trace'];
  /** With answers scored: whether the answer shown was right, at what confidence, or refused. */
  answer?: { right: boolean | null; confidence: number; abstained: boolean };
}

export function resultDetail(index: RetrievalIndex, q: EvaluationQuestion, r: RetrievalResult): ResultDetail {
  return {
    gold: {
      doi: q.answer_doi ?? null,
      paperId: q.answer_paper_id ?? null,
      value: q.answer_value ?? null,
      paragraphId: q.evidence?.paragraph_id ?? null,
      evidence: q.evidence?.text ?? null,
    },
    papers: r.papers.slice(0, 5).map((p) => ({
      paperId: p.paperId,
      doi: p.doi,
      title: p.title,
      score: p.score,
      sourceId: p.paperId ? (index.papers.get(p.paperId)?.sourceId ?? null) : null,
    })),
    evidence: r.evidence.slice(0, 5).map((e) => ({ ...e, text: e.text.length > 1200 ? `${e.text.slice(0, 1200)}…` : e.text })),
    value: r.value,
    abstention: r.abstention,
    trace: r.trace,
  };
}

export async function runRetrievalEvaluation(
  index: RetrievalIndex,
  questions: EvaluationQuestion[],
  pipelines: PipelineName[],
  opts: {
    reformulator?: Reformulator;
    /** Also compose the extractive answer on each retrieval and score it. */
    answers?: boolean;
    /** How to answer each retrieval instead of extractively (a model's answer or a baseline). */
    answerWith?: (r: RetrievalResult) => Promise<Answer>;
    /** The database's lookups an answer makes beside retrieval (recipes, a paper's record); none: answers without them. */
    lookups?: Pick<AnswerOptions, 'recipes' | 'bibliography'>;
    /** Answers are a baseline's (model-only, naive-kg): not prepared as the app's answers are. */
    baseline?: boolean;
    /** A judge model's scores of each answer. */
    judgeWith?: (a: Answer) => Promise<JudgeScore>;
    onProgress?: (done: number, total: number) => void;
    onResults?: (batch: EvaluatedQuestion[]) => Promise<void>;
    signal?: AbortSignal;
  } = {},
): Promise<{ summary: EvaluationSummary; scores: Map<PipelineName, QuestionScore[]> }> {
  const sourceIds = new Map([...index.papers.values()].map((p) => [p.id, p.sourceId]));
  const scores = new Map<PipelineName, QuestionScore[]>(pipelines.map((p) => [p, []]));
  const total = questions.length * pipelines.length;
  let done = 0;
  for (const pipeline of pipelines) {
    let batch: EvaluatedQuestion[] = [];
    for (const q of questions) {
      if (opts.signal?.aborted) throw new Error('evaluation cancelled');
      const r = await retrieve(index, q.question, pipeline, { reformulator: opts.reformulator, ...(opts.answers ? { k: ANSWER_K } : {}) });
      const score = scoreQuestion(q, r, sourceIds);
      if (opts.answers) {
        // The answer is scored as a person is shown it: with the comparison's sides, the records and the off-topic
        // guard (`prepareAnswer`); the retrieval's own figures above are the pipeline's alone. A baseline answers the
        // retrieval as it is, as `answerQuestion` does.
        const sideOptions = { reformulator: opts.reformulator, k: ANSWER_K };
        const prepared = opts.baseline ? r : await prepareAnswer(r, (side) => retrieve(index, side, pipeline, sideOptions), opts.lookups);
        const answer = opts.answerWith ? await opts.answerWith(prepared) : { ...extractiveAnswer(prepared), trace: [], latencyMs: 0 };
        score.answer = scoreAnswer(q, answer, (id) => index.papers.get(id)?.sourceId);
        if (opts.judgeWith) score.answer.judge = await opts.judgeWith(answer);
      }
      scores.get(pipeline)!.push(score);
      const detail = resultDetail(index, q, r);
      if (score.answer) detail.answer = { right: score.answer.right, confidence: score.answer.confidence, abstained: score.answer.abstained };
      batch.push({ pipeline, question: q, score, detail });
      if (batch.length >= 200) {
        await opts.onResults?.(batch);
        batch = [];
      }
      opts.onProgress?.(++done, total);
    }
    await opts.onResults?.(batch);
  }
  return { summary: summarise(questions.length, scores), scores };
}

export function summarise(n: number, scores: Map<string, QuestionScore[]>): EvaluationSummary {
  const pipelines: Record<string, PipelineSummary> = {};
  for (const [name, list] of scores) {
    const group = (key: (s: QuestionScore) => string) => {
      const out: Record<string, PipelineMetrics> = {};
      const by = new Map<string, QuestionScore[]>();
      for (const s of list) by.set(key(s), [...(by.get(key(s)) ?? []), s]);
      for (const [k, v] of [...by.entries()].sort()) out[k] = aggregate(v);
      return out;
    };
    pipelines[name] = { ...aggregate(list), by_type: group((s) => s.type), by_source: group((s) => s.source ?? 'unknown') };
  }
  return { questions: n, pipelines };
}
