import type { RetrievalResult } from '../pipelines/types.ts';
import { materialTerms } from '../retrieval/facets.ts';
import { splitSentences } from '../structure/sentences.ts';
import { plainTerms, textFacets } from '../structure/terms.ts';

/**
 * "What is the melting point of gold?" — a property the lexicon does not know, of a material. Retrieval finds
 * sentences about gold and sentences about melting points (of gallium), and a descriptive answer would quote them at
 * the confidence of the paper that holds both. Such a question is answered only where one sentence names the
 * material and every word of the property; otherwise it is refused, saying what is missing. A property the lexicon
 * knows is judged by the abstention's facet checks instead (its synonyms are known there).
 */

const ASKED = /^\s*what\s+(?:is|was|are|were)\s+(?:the\s+|a\s+|an\s+)?(?:typical\s+|reported\s+)?(.{3,60}?)\s+of\s+(?:the\s+|a\s+|an\s+)?(.{1,80}?)\s*\??\s*$/i;
const FRAME = new Set(plainTerms('value values number amount level degree'));

/** The property words a value question asks about, when the lexicon knows no property in it; null otherwise. */
export function unknownPropertyWords(result: Pick<RetrievalResult, 'analysis'>): string[] | null {
  const a = result.analysis;
  if (a.intent !== 'value' || a.title || a.properties.length || !a.materials.length || a.quantities.length) return null;
  const m = ASKED.exec(a.body);
  if (!m) return null;
  const words = plainTerms(m[1]).filter((w) => w.length > 1 && !FRAME.has(w) && !/^\d/.test(w));
  return words.length ? words : null;
}

/** Whether some sentence of the evidence names one of the question's materials and every property word. */
function statedTogether(result: Pick<RetrievalResult, 'analysis' | 'evidence'>, words: string[]): boolean {
  const materials = new Set(result.analysis.materials);
  for (const e of result.evidence) {
    for (const s of splitSentences(e.text)) {
      const terms = new Set(plainTerms(s.text));
      if (!words.every((w) => terms.has(w))) continue;
      const f = textFacets(s.text);
      if ([...materialTerms(f.formulas, f.materials)].some((k) => materials.has(k))) return true;
    }
  }
  return false;
}

/** The result refused when it asks an unknown property of a material no sentence states it for; else unchanged. */
export function guardOffTopic(result: RetrievalResult): RetrievalResult {
  if (result.abstention.abstain || result.recipes) return result;
  const words = unknownPropertyWords(result);
  if (!words || statedTogether(result, words)) return result;
  const asked = ASKED.exec(result.analysis.body)!;
  return {
    ...result,
    abstention: {
      ...result.abstention,
      abstain: true,
      reasons: ['unmatched-terms'],
      explanation: `no retrieved sentence states the ${asked[1].trim()} of ${asked[2].trim()}`,
      calibrated: 0,
    },
    trace: [...result.trace, { step: 'off-topic', ms: 0, detail: { asked: asked[1].trim(), of: asked[2].trim(), words } }],
  };
}
