import type { ClaimCheck } from '../types.ts';

/**
 * One check of an answer sentence against what it cites, with no model: it fills one field of the sentence's
 * ClaimCheck, which the verdict (verify.ts) and the answer view read. The texts are the cited items as the answer
 * shows them (title and text, PDF-split formulas joined), so a quoted sentence is checked against what it quotes.
 */
export interface SentenceCheck<F extends keyof ClaimCheck = keyof ClaimCheck> {
  field: F;
  run(sentence: string, citedTexts: string[]): ClaimCheck[F];
}

/** Declares a check with its field's type. */
export const defineCheck = <F extends keyof ClaimCheck>(check: SentenceCheck<F>): SentenceCheck<F> => check;
