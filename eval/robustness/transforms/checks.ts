import { parseQuantities } from '../../../lib/structure/quantities.ts';

/**
 * Whether two wordings state the same values in canonical units (each within `tolerance` of the other, relative;
 * temperatures within 0.6 K): how a meaning-keeping transform checks its own rewrite before offering it.
 */
export function sameQuantities(a: string, b: string, tolerance = 1e-6): boolean {
  const qa = parseQuantities(a);
  const qb = parseQuantities(b);
  if (qa.length !== qb.length) return false;
  return qa.every((x, i) => {
    const y = qb[i];
    if (x.dimension !== y.dimension || x.canonical.length !== y.canonical.length) return false;
    return x.canonical.every((v, j) => {
      const w = y.canonical[j];
      return Math.abs(v - w) <= Math.max(Math.abs(v), Math.abs(w)) * tolerance + (x.dimension === 'temperature' ? 0.6 : 1e-12);
    });
  });
}
