import type { ScoredId } from './lexical-index.ts';

/**
 * Reciprocal-rank fusion (Cormack et al. 2009): score(d) = Σ_lists w / (k + rank(d)). Chosen over score
 * interpolation because BM25 and cosine scores live on unrelated scales that change with every query, while
 * ranks do not; k = 60 is the published default and keeps the first few ranks from dominating. Weights 1:1
 * give the lexical and dense retrievers equal say, as in method A.
 */
export function reciprocalRankFusion(lists: { hits: ScoredId[]; weight?: number }[], k = 60): ScoredId[] {
  const scores = new Map<string, number>();
  for (const { hits, weight = 1 } of lists) {
    hits.forEach((h, rank) => {
      scores.set(h.id, (scores.get(h.id) ?? 0) + weight / (k + rank + 1));
    });
  }
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
