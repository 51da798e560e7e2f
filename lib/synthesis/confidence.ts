import fitted from './confidence.json' with { type: 'json' };
import type { RecipeSummary } from './summary.ts';

/**
 * The confidence a synthesis answer shows: the chance that a recipe of the material by the method asked is one the
 * answer describes (among those it counts, with precursors it lists as usual), measured by `npm run eval:synthesis
 * -- --write` on questions made from the recipe files, per size of the summary. Fewer recipes, a thinner summary.
 */

export const CONFIDENCE_BUCKETS = ['1', '2-4', '5-19', '20+'] as const;

export function confidenceBucket(total: number): (typeof CONFIDENCE_BUCKETS)[number] {
  return total <= 1 ? '1' : total <= 4 ? '2-4' : total <= 19 ? '5-19' : '20+';
}

interface Fit {
  buckets: Record<string, { n: number; right: number }>;
}

/** The bucket's measured share, pooled with its neighbours while it has fewer than 10 questions; 0.5 with none. */
export function recipeConfidence(summary: Pick<RecipeSummary, 'total'>, fit: Fit = fitted as Fit): number {
  const i = CONFIDENCE_BUCKETS.indexOf(confidenceBucket(summary.total));
  let n = 0;
  let right = 0;
  for (let d = 0; d < CONFIDENCE_BUCKETS.length && n < 10; d++) {
    for (const j of new Set([i - d, i + d])) {
      const b = fit.buckets[CONFIDENCE_BUCKETS[j]];
      if (!b) continue;
      n += b.n;
      right += b.right;
    }
  }
  return n ? Math.round((right / n) * 1000) / 1000 : 0.5;
}
