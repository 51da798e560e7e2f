import type { RetrievalResult } from '../../pipelines/types.ts';
import type { AnswerSentence, AnswerShape, ValueRow } from '../types.ts';

/** A sentence as a shape writes it: verdicts are added by verification afterwards. */
export type DraftSentence = Omit<AnswerSentence, 'verdict' | 'check'>;

export interface AnswerDraft {
  shape: AnswerShape;
  sentences: DraftSentence[];
  table?: ValueRow[];
  disagreement?: string | null;
  corpusHolds?: string | null;
}

/**
 * One answer shape, one file: whether it fits the retrieval result (question and evidence), and the extractive
 * answer it composes from that evidence alone. Shapes are tried in the registry's order; the first that
 * composes an answer wins.
 */
export interface AnswerShapeComposer {
  name: AnswerShape;
  compose(result: RetrievalResult): AnswerDraft | null;
}

export const draft = (text: string, citations: string[]): DraftSentence => ({ text, citations, flags: [] });
