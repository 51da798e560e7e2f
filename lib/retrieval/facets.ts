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

/** A single element's term (`f:Ni`): in a question it names an atmosphere, a dopant or a metal, not a compound asked about. */
export const isElementTerm = (term: string): boolean => /^f:[A-Z][a-z]?$/.test(term);

export function materialTerms(formulas: Iterable<string>, materials: Iterable<string>): Set<string> {
  return new Set([...[...formulas].map((f) => `f:${f}`), ...[...materials].map((m) => `m:${m}`)]);
}

/**
 * How far a stated value may be from the question's and still be it, in canonical units, for each of the question's
 * values: the precision the question writes it with (half a unit of its last digit: "13 K" is 12.5–13.5 K, "0.37"
 * is 0.365–0.375; trailing zeros of a whole number count for at most 2.5 %, and a temperature's whole degrees are
 * exact), never less than 0.5 %; and for a value given as approximate ("about", "~", "just over") 10 %, a temperature
 * 5 % up to 25 K. A value rounded to two digits or recalled loosely is the same value; three times it is not.
 */
const tolerances = new WeakMap<Quantity, number[]>();
const WRITTEN_NUMBER = /\d+(?:[.,]\d+)?/g;
export function valueTolerances(q: Quantity): number[] {
  let t = tolerances.get(q);
  if (t) return t;
  const written = [...q.text.matchAll(WRITTEN_NUMBER)].map((m) => m[0]);
  const temperature = q.dimension === 'temperature';
  t = q.canonical.map((c, i) => {
    const v = Math.abs(q.values[i] ?? 0);
    const w = written[i] ?? '';
    const [whole, fraction] = w.replace(',', '.').split('.');
    const trailingZeros = fraction ? 0 : (/0+$/.exec(whole)?.[0].length ?? 0);
    let half = fraction ? 0.5 * 10 ** -fraction.length : trailingZeros && !temperature ? Math.min(0.5 * 10 ** trailingZeros, 0.025 * v) : 0.5;
    if (!w || v === 0) half = 0;
    // In canonical units: the value's own scale (a temperature's degree is a kelvin; "× 10−4" scales the digits).
    const scale = temperature ? (/F/.test(q.unit) ? 5 / 9 : 1) : v > 0 ? Math.abs(c) / v : 1;
    const mantissa = Number(w.replace(',', '.'));
    const exponent = mantissa > 0 && v > 0 ? v / mantissa : 1;
    let tol = Math.max(Math.abs(c) * 0.005, half * exponent * scale);
    if (q.comparator === '~') tol = Math.max(tol, temperature ? Math.min(0.05 * Math.abs(c), 25) : 0.1 * Math.abs(c));
    // 0.16 K: a whole degree Celsius is a kelvin and 0.15 ("550 °C" is 823.15 K, written 823 K).
    return tol + (temperature ? 0.16 : 0) + 1e-12;
  });
  tolerances.set(q, t);
  return t;
}

/** The scales a value is read in when its uncertainty is larger than itself (nm ↔ Å, Ω ↔ mΩ, …). */
const RESCALINGS = [10, 100, 1000];

/** Equal within rounding (0.5 %, and 0.6 K for temperatures, for "550 °C" = "823 K"): stated values against stated ones. */
const closeTo = (a: number, b: number, dimension: string) =>
  Math.abs(a - b) <= Math.max(Math.abs(a), Math.abs(b)) * 0.005 + (dimension === 'temperature' ? 0.6 : 0) + 1e-12;

/**
 * How well stated quantities meet a question's quantity: 1 when a stated value equals it in canonical units
 * (a range's ends for a range), ½ when it only falls inside a stated range or the ranges overlap, else 0. A value the
 * question gives as approximate ("about 0.18 W/cm2", "~40 K") or rounded meets stated values within its tolerance (`valueTolerances`); a bound ("below 10 nm",
 * "> 500 mW/cm2") is met by its own value, and by any value within it for ½.
 */
/** A stated range whose ends are further apart than this factor is a sweep, not a statement of any value in it. */
const WIDE_RANGE = 10;

export function quantityMatch(have: QuantityFacet[], q: Quantity): number {
  let best = 0;
  // Called for every candidate of every question (a graph question scores some 700 tuples): plain loops, no
  // arrays or closures made per stated value, and the question's ends found once a stated value shares its dimension.
  let qlo = Number.NaN;
  let qhi = Number.NaN;
  let tol: number[] | null = null;
  // A bound ("below 10 nm") is met, less surely than a stated value, by any value within it.
  const below = q.comparator?.startsWith('<') ?? false;
  const bound = below || (q.comparator?.startsWith('>') ?? false);
  for (const h of have) {
    if (h.dimension !== q.dimension) continue;
    if (Number.isNaN(qlo)) {
      tol = valueTolerances(q);
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
    for (let i = 0; i < q.canonical.length; i++) {
      const v = q.canonical[i];
      for (const x of h.values) if (Math.abs(v - x) <= tol![i]) return 1;
      // "2.8 ± 5 Å", "1.04 ± 20 mΩ cm²": an uncertainty larger than its value says the value kept the scale of a unit
      // the ± part was converted from (2.8 nm, 1.04 Ω cm²); read in that scale it may be stated.
      if (q.kind === 'single' && q.canonicalPlusMinus !== null && Math.abs(q.canonicalPlusMinus) > Math.abs(v) && v !== 0)
        for (const scale of RESCALINGS) for (const x of h.values) if (Math.abs(v * scale - x) <= tol![i] * scale) return 1;
      // Within a stated range, half met — not within a sweep of orders of magnitude ("measured from 0.3 to 300 K"
      // states no 25 K).
      if (h.range && v >= lo && v <= hi && !(lo > 0 && hi / lo > WIDE_RANGE)) best = 0.5;
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
