import { round, type StepFn } from '../common/trace.ts';
import type { ScoredId } from './lexical-index.ts';
import type { RetrievalIndex } from './index.ts';
import type { QuestionAnalysis } from './question.ts';

/** What every retrieval step reads: the index, the analysed question, the trace and the number of items wanted. */
export interface RetrievalContext {
  index: RetrievalIndex;
  analysis: QuestionAnalysis;
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
