import { round, type StepFn } from '../common/trace.ts';
import type { ScoredId } from './lexical-index.ts';
import type { RetrievalIndex } from './index.ts';
import type { OptimisedQuery } from './reformulate.ts';
import type { QuestionAnalysis } from './question.ts';

/**
 * What retrieval reads from a question besides its analysis, made once per question (query-plan.ts) and shared by
 * every search that runs on it (the hybrid pipeline's structured and graph halves alike): the rules' optimised
 * query (method A step 1) and the paper a quoted title names (null: none quoted, or none matches).
 */
export interface QueryPlan {
  optimised: OptimisedQuery;
  titlePaper: string | null;
}

/**
 * What every retrieval step reads: the index, the analysed question, its query plan (made on first use, once per
 * question), the trace and the number of items wanted.
 */
export interface RetrievalContext {
  index: RetrievalIndex;
  analysis: QuestionAnalysis;
  plan: () => Promise<QueryPlan>;
  step: StepFn;
  /** Evidence items returned (top-k). */
  k: number;
}

/** Candidates each search keeps before boosts and fusion. */
export const CANDIDATES = 100;

/** The best three hits as "corpus id (score)", for trace details. */
export function topIds(ctx: Pick<RetrievalContext, 'index'>, hits: ScoredId[]): string[] {
  return hits.slice(0, 3).map((h) => {
    const p = ctx.index.paragraphs.get(h.id);
    return p ? `${p.externalId ?? p.id} (${round(h.score, 4)})` : h.id;
  });
}
