import { type Evidence, paperOf } from '../evidence/model.ts';
import { readableText } from '../structure/terms.ts';
import { runChecks } from './checks/registry.ts';
import type { AnswerSentence, ClaimCheck, Verdict } from './types.ts';
import { isFrame } from './shapes/types.ts';

/**
 * Offline claim verification: a sentence is checked against the evidence it cites, by what can be compared
 * without a model (the checks of checks/registry.ts: its values, its materials, its content words), and given a
 * verdict from what they found.
 */

export function checkClaim(sentence: string, cited: Evidence[]): ClaimCheck {
  // Read as the answer shows it (PDF-split formulas joined, "29 • C" as 29 °C): a quoted sentence is checked against
  // the same text it was quoted from.
  const texts = cited.map((e) => readableText(`${paperOf(e)?.title ?? ''}\n${e.text}`));
  return runChecks(sentence, texts);
}

export function verdictOf(check: ClaimCheck): Exclude<Verdict, 'uncited'> {
  const checkable = check.quantities.found.length + check.quantities.missing.length + check.materials.found.length + check.materials.missing.length;
  const found = check.quantities.found.length + check.materials.found.length;
  if (checkable > 0) {
    if (found === checkable && check.termOverlap >= 0.5) return 'supported';
    // A sentence whose values and materials are all absent from what it cites is not saved by shared words.
    return found > 0 ? 'partial' : 'unsupported';
  }
  return check.termOverlap >= 0.6 ? 'supported' : check.termOverlap >= 0.3 ? 'partial' : 'unsupported';
}

/** Verifies every sentence against the items it cites (looked up in `pool`). */
export function verifySentences(sentences: Omit<AnswerSentence, 'verdict' | 'check'>[], pool: Map<string, Evidence>): AnswerSentence[] {
  return sentences.map((s) => {
    const cited = s.citations.map((id) => pool.get(id)).filter((e): e is Evidence => !!e);
    // A framing line ("“Title” reports:") states nothing to check: no verdict, whatever it cites.
    if (cited.length === 0 || isFrame(s)) return { ...s, verdict: 'uncited', check: null };
    const check = checkClaim(s.text, cited);
    return { ...s, verdict: verdictOf(check), check };
  });
}
