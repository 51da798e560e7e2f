import { timeSlicer } from '../common/yield.ts';
import { compactText, paperTerms } from './abstention.ts';
import { type PerPaper, paperFacets, paperTechniques, titleAnalysisCache } from './coverage.ts';
import type { RetrievalIndex } from './index.ts';

/** The per-paper values abstention reads. */
const PAPER_CACHES: PerPaper<unknown>[] = [paperFacets, paperTechniques, titleAnalysisCache, compactText, paperTerms];

/**
 * What the decision reads of each paper, computed after the index is built, not on a question (natural, graph p95
 * 49 → 34 ms; 3 s, +80 MB). Each cache keeps at most its `limit` of papers, so only that many are warmed: at ten
 * times the shared corpus (18,000 papers, caches of 2,000 and 5,000) warming all of them took 28 s and kept the last few.
 */
export async function warmPaperCaches(index: RetrievalIndex, slice = timeSlicer(), caches: PerPaper<unknown>[] = PAPER_CACHES): Promise<void> {
  const most = Math.max(...caches.map((c) => c.limit));
  let n = 0;
  for (const paperId of index.papers.keys()) {
    if (n >= most) break;
    for (const cache of caches) if (n < cache.limit) cache(index, paperId);
    n++;
    await slice();
  }
}
