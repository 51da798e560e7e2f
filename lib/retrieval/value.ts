import type { Evidence } from '../evidence/model.ts';
import { findProperties } from '../structure/properties.ts';
import { parseQuantities, type Quantity } from '../structure/quantities.ts';
import { splitSentences } from '../structure/sentences.ts';
import { textFacets } from '../structure/terms.ts';
import { materialTerms, quantityFacet, quantityMatch } from './facets.ts';
import type { QuestionAnalysis } from './question.ts';

/** The value a value question asks for, as stated in one evidence item. */
export interface QuantityAnswer {
  text: string;
  dimension: string;
  canonical: number[];
  canonicalUnit: string;
  evidenceId: string;
}

/**
 * The value a value question asks for: among the quantities of the asked dimension in the top evidence, the one
 * whose sentence best states what else the question names. A sentence naming the question's material (in any
 * spelling) weighs most, then one stating the question's conditions (values in canonical units: "at 800 °C"
 * meets "1073 K"), then one naming the asked property; nearness to those words and the evidence rank break ties.
 */
export function extractValue(evidence: Evidence[], analysis: QuestionAnalysis): QuantityAnswer | null {
  if (!analysis.askedDimension) return null;
  const materials = new Set(analysis.materials);
  const words = analysis.entityWords.filter((w) => w.length > 1);
  let best: { q: QuantityAnswer; score: number } | null = null;
  evidence.forEach((e, rank) => {
    for (const s of sentencesCached(e.text)) {
      const candidates = s.quantities.filter((q) => q.dimension === analysis.askedDimension && !analysis.quantities.some((x) => x.text === q.text));
      if (candidates.length === 0) continue;
      const namesMaterial = s.materials.some((m) => materials.has(m)) || words.some((w) => s.text.includes(w));
      const conditions = analysis.quantities.length ? analysis.quantities.reduce((t, x) => t + quantityMatch(s.facets, x), 0) / analysis.quantities.length : 0;
      const materialAt: number[] = [];
      for (const w of words) for (let i = s.text.indexOf(w); i >= 0; i = s.text.indexOf(w, i + 1)) materialAt.push(i);
      const properties = findProperties(s.text).filter((p) => analysis.properties.includes(p.key));
      const nearest = (at: number[], q: Quantity) => at.reduce((d, a) => Math.min(d, Math.abs(a - q.start)), 200);
      for (const q of candidates) {
        // In "9.6 K for KOs2O6 and 6.3 K for RbOs2O6" the value nearest the material named is the one asked for.
        const score =
          3 * (namesMaterial ? 1 : 0) +
          2 * conditions +
          (properties.length ? 1 : 0) -
          0.5 * rank -
          nearest(materialAt, q) / 100 -
          nearest(
            properties.map((p) => p.start),
            q,
          ) /
            400;
        if (!best || score > best.score)
          best = { q: { text: q.text, dimension: q.dimension, canonical: q.canonical, canonicalUnit: q.canonicalUnit, evidenceId: e.id }, score };
      }
    }
  });
  return (best as { q: QuantityAnswer } | null)?.q ?? null;
}

interface ReadSentence {
  text: string;
  quantities: Quantity[];
  facets: ReturnType<typeof quantityFacet>[];
  materials: string[];
}

const sentenceCache = new Map<string, ReadSentence[]>();

/** Sentences of a text with their quantities and canonical materials (cached: the same paragraphs come back often). */
function sentencesCached(text: string): ReadSentence[] {
  let out = sentenceCache.get(text);
  if (!out) {
    if (sentenceCache.size > 5000) sentenceCache.clear();
    out = splitSentences(text).map((s) => {
      const quantities = parseQuantities(s.text);
      const f = textFacets(s.text);
      return { text: s.text, quantities, facets: quantities.map(quantityFacet), materials: [...materialTerms(f.formulas, f.materials)] };
    });
    sentenceCache.set(text, out);
  }
  return out;
}
