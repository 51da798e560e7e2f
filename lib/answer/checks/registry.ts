import type { ClaimCheck } from '../types.ts';
import { materialCheck } from './materials.ts';
import { quantityCheck } from './quantities.ts';
import { termCheck } from './terms.ts';
import type { SentenceCheck } from './types.ts';

/**
 * The offline checks every answer sentence gets against what it cites, one file each in this folder, by the field
 * of ClaimCheck each fills (the type makes every field have its check). Adding a check: its file, its field in
 * ClaimCheck (types.ts), a line here, and what the verdict makes of it (verify.ts).
 */
export const CHECKS: { [F in keyof ClaimCheck]: SentenceCheck<F> } = {
  quantities: quantityCheck,
  materials: materialCheck,
  termOverlap: termCheck,
};

/** Every check's finding for a sentence against the texts it cites. */
export function runChecks(sentence: string, citedTexts: string[]): ClaimCheck {
  const checks: SentenceCheck[] = Object.values(CHECKS);
  // Every field has its check (CHECKS's type), so the object built from them is a whole ClaimCheck.
  return Object.fromEntries(checks.map((c) => [c.field, c.run(sentence, citedTexts)])) as unknown as ClaimCheck;
}
