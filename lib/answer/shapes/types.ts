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
  /**
   * The share of what the question asks that the draft states (a comparison with values for one of its two sides:
   * 0.5; none: 1). The confidence shown is the retrieval's scaled by it: an answer to half the question is not as
   * sure as the paper it came from (see `draftConfidence`).
   */
  answered?: number;
  /**
   * The draft's own confidence in what it states, in place of the retrieval's: a value answer's is its value's
   * (RetrievalResult.value.confidence), since the right paper can still give the wrong value.
   */
  confidence?: number;
  /**
   * A fact the question states that the answer says its evidence does not meet ("the 750 °C asked" where the value is
   * stated at 800 °C; precursors no recipe starts from): the answer is shown below one half and names it.
   */
  unmet?: string;
}

/**
 * The confidence an answer from this draft shows: its own (a value's) or the retrieval's calibrated confidence,
 * times the share of the question it answers.
 */
export const draftConfidence = (calibrated: number, d: Pick<AnswerDraft, 'answered' | 'confidence'>): number =>
  Math.round((d.confidence ?? calibrated) * Math.min(1, Math.max(0, d.answered ?? 1)) * 1000) / 1000;

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

/**
 * A sentence that frames others and states nothing to check ("“Title” (doi:…) reports:", "the passages closest to
 * the question say:"): it may cite the paper it introduces, but it gets no verdict and counts as no claim.
 */
export const frame = (text: string, citations: string[]): DraftSentence => ({ text, citations, flags: ['frame'] });

/** Whether a sentence only frames others (see `frame`). */
export const isFrame = (s: { flags: string[] }): boolean => s.flags.includes('frame');
