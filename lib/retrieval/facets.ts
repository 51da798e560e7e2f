import type { Quantity } from '../structure/quantities.ts';
import { quantityTerm } from '../structure/terms.ts';

/**
 * Facets: what a paragraph, sentence, record or tuple states in canonical form (materials as `f:` Hill formulas
 * and `m:` lexicon keys, properties, values in canonical units). Questions are read into the same shape, so
 * matching a question against the corpus is set and interval arithmetic on facets.
 */
export interface QuantityFacet {
  dimension: string;
  /** Canonical values: one, a list, or a range's two ends. */
  values: number[];
  range: boolean;
  text: string;
  /** Offset in the paragraph text (for sentence-level matching); absent for records. */
  start?: number;
}

export interface Facets {
  /** Canonical material terms: `f:` Hill formulas and `m:` lexicon keys. */
  materials: Set<string>;
  properties: Set<string>;
  quantities: QuantityFacet[];
}

/**
 * The facets as terms of a BM25 field (the structure field of paragraphs and records): canonical materials,
 * properties as `p:` terms, and each quantity's values as quantity terms (lib/structure/terms.ts).
 */
export function facetTerms(f: Facets): string[] {
  const terms = [...f.materials, ...[...f.properties].map((p) => `p:${p}`)];
  for (const q of f.quantities) terms.push(...new Set(q.values.map((v) => quantityTerm(q.dimension, v))));
  return terms;
}

export const quantityFacet = (q: { dimension: string; canonical: number[]; kind: string; text: string; start?: number }): QuantityFacet => ({
  dimension: q.dimension,
  values: q.canonical,
  range: q.kind === 'range',
  text: q.text,
  start: q.start,
});

export function materialTerms(formulas: Iterable<string>, materials: Iterable<string>): Set<string> {
  return new Set([...[...formulas].map((f) => `f:${f}`), ...[...materials].map((m) => `m:${m}`)]);
}

/** Equal within rounding (0.5 %, and 0.6 K for temperatures, for "550 °C" = "823 K"); within 5 % when approximate. */
const closeTo = (a: number, b: number, dimension: string, approximate = false) =>
  Math.abs(a - b) <= Math.max(Math.abs(a), Math.abs(b)) * (approximate ? 0.05 : 0.005) + (dimension === 'temperature' ? 0.6 : 0) + 1e-12;

/**
 * How well stated quantities meet a question's quantity: 1 when a stated value equals it in canonical units
 * (a range's ends for a range), ½ when it only falls inside a stated range or the ranges overlap, else 0. A value the
 * question gives as approximate ("about 0.18 W/cm2", "~40 K") meets stated values within 5 %; a bound ("below 10 nm",
 * "> 500 mW/cm2") is met by its own value, and by any value within it for ½.
 */
export function quantityMatch(have: QuantityFacet[], q: Quantity): number {
  let best = 0;
  // Called for every candidate of every question (a graph question scores some 700 tuples): plain loops, no
  // arrays or closures made per stated value, and the question's ends found once a stated value shares its dimension.
  let qlo = Number.NaN;
  let qhi = Number.NaN;
  const approximate = q.comparator === '~';
  // A bound ("below 10 nm") is met, less surely than a stated value, by any value within it.
  const below = q.comparator?.startsWith('<') ?? false;
  const bound = below || (q.comparator?.startsWith('>') ?? false);
  for (const h of have) {
    if (h.dimension !== q.dimension) continue;
    if (Number.isNaN(qlo)) {
      qlo = Infinity;
      qhi = -Infinity;
      for (const v of q.canonical) {
        if (v < qlo) qlo = v;
        if (v > qhi) qhi = v;
      }
    }
    let lo = Infinity;
    let hi = -Infinity;
    for (const x of h.values) {
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    if (q.kind === 'range') {
      if (h.range && closeTo(qlo, lo, q.dimension) && closeTo(qhi, hi, q.dimension)) return 1;
      if (lo <= qhi && hi >= qlo) best = 0.5;
      continue;
    }
    for (const v of q.canonical) {
      for (const x of h.values) if (closeTo(v, x, q.dimension, approximate)) return 1;
      if (h.range && v >= lo && v <= hi) best = 0.5;
      if (bound)
        for (const x of h.values)
          if (below ? x < v : x > v) {
            best = 0.5;
            break;
          }
    }
  }
  return best;
}
