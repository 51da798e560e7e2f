import type { Evidence } from '../evidence/model.ts';
import { findProperties } from '../structure/properties.ts';
import { parseQuantities, type Quantity } from '../structure/quantities.ts';
import type { QuestionAnalysis } from './question.ts';

/** The value a value question asks for, as stated in one evidence item. */
export interface QuantityAnswer {
  text: string;
  dimension: string;
  canonical: number[];
  canonicalUnit: string;
  evidenceId: string;
}

/** The value a value question asks for: a quantity of the asked dimension, nearest to the question's terms. */
export function extractValue(evidence: Evidence[], analysis: QuestionAnalysis): QuantityAnswer | null {
  if (!analysis.askedDimension) return null;
  let best: { q: QuantityAnswer; cost: number } | null = null;
  evidence.forEach((e, rank) => {
    const anchors: number[] = [];
    for (const w of analysis.entityWords) {
      for (let i = e.text.indexOf(w); i >= 0; i = e.text.indexOf(w, i + 1)) anchors.push(i);
    }
    for (const p of findProperties(e.text)) if (analysis.properties.includes(p.key)) anchors.push(p.start);
    for (const q of parseQuantitiesCached(e.text)) {
      if (q.dimension !== analysis.askedDimension) continue;
      let distance = anchors.length ? Infinity : 200;
      for (const a of anchors) distance = Math.min(distance, Math.abs(a - q.start));
      const cost = rank * 400 + distance;
      if (!best || cost < best.cost)
        best = { q: { text: q.text, dimension: q.dimension, canonical: q.canonical, canonicalUnit: q.canonicalUnit, evidenceId: e.id }, cost };
    }
  });
  return (best as { q: QuantityAnswer } | null)?.q ?? null;
}

const quantityCache = new Map<string, Quantity[]>();
function parseQuantitiesCached(text: string): Quantity[] {
  let q = quantityCache.get(text);
  if (!q) {
    if (quantityCache.size > 5000) quantityCache.clear();
    q = parseQuantities(text);
    quantityCache.set(text, q);
  }
  return q;
}
