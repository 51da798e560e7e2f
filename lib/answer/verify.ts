import { type Evidence, paperOf } from '../evidence/model.ts';
import { materialTerms, quantityFacet, quantityMatch } from '../retrieval/facets.ts';
import { parseQuantities } from '../structure/quantities.ts';
import { plainTerms, readableText, textFacets } from '../structure/terms.ts';
import type { AnswerSentence, ClaimCheck, Verdict } from './types.ts';
import { isFrame } from './shapes/types.ts';

/**
 * Offline claim verification: a sentence is checked against the evidence it cites, by what can be compared
 * without a model: its values (canonical number and unit, within tolerance; a value inside a stated range
 * counts), its materials (canonical keys, so spellings meet) and its content words.
 */

// Words every answer sentence uses and no evidence needs to contain.
const FRAME = new Set(
  plainTerms(
    'the paper that reports this states state report reports reported value values is are was were at in of for by with and from its their this these those other papers also same corpus citing them ' +
      // the words of the answers' own frames (design and reasoning sentences), which no evidence states
      'reaches meeting short target route step analogue analogy sim extrapolate caution diverge expected about interquartile then tier direct evidence ' +
      // and of the synthesis answer's summary lines (a count, a median, a range over the recipes it cites)
      'records hold recipe recipes usual common most order operations median half all them time temperature atmosphere earlier final another typical variants itself such',
  ),
);

/** A word in brackets is the word ("(calcined)"); a formula's own brackets ("Mn(NO3)2") stay. */
const unbracketed = (w: string): string => (/^[([].*[)\]]$/.test(w) && !/[([].*[([]/.test(w) ? w.slice(1, -1) : w);

export function checkClaim(sentence: string, cited: Evidence[]): ClaimCheck {
  // Read as the answer shows it (PDF-split formulas joined, "29 • C" as 29 °C): a quoted sentence is checked against
  // the same text it was quoted from.
  const texts = cited.map((e) => readableText(`${paperOf(e)?.title ?? ''}\n${e.text}`));
  const have = texts.flatMap((t) => parseQuantities(t).map(quantityFacet));
  const found: string[] = [];
  const missing: string[] = [];
  for (const q of parseQuantities(sentence)) (quantityMatch(have, q) > 0 ? found : missing).push(q.text);
  const citedMaterials = new Set<string>();
  for (const t of texts) {
    const f = textFacets(t);
    for (const m of materialTerms(f.formulas, f.materials)) citedMaterials.add(m);
  }
  const f = textFacets(sentence);
  const materials = [...materialTerms(f.formulas, f.materials)];
  const words = [...new Set(plainTerms(sentence).map(unbracketed))].filter((w) => w.length > 2 && !FRAME.has(w) && !/^\d/.test(w));
  const citedWords = new Set(texts.flatMap((t) => plainTerms(t).map(unbracketed)));
  return {
    quantities: { found, missing },
    materials: { found: materials.filter((m) => citedMaterials.has(m)), missing: materials.filter((m) => !citedMaterials.has(m)) },
    termOverlap: words.length ? words.filter((w) => citedWords.has(w)).length / words.length : 1,
  };
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
