import { timeSlicer } from '../common/yield.ts';
import { plainTerms } from '../structure/terms.ts';
import { PAPER_CACHE_LIMIT, paperFacets, paperTechniques, paperText, perPaper, titleMaterials } from './coverage.ts';
import type { RetrievalIndex } from './index.ts';

/**
 * What the abstention decision reads of each paper (its words, its text without spaces), cached per paper and
 * index, and the warm-up that fills these caches and coverage's after an index is built or read back.
 */

/** `s` without whitespace, with Unicode minus signs and dashes as hyphens: how a name is looked for in a paper's text. */
export const compact = (s: string) => s.normalize('NFKC').replace(/\s+/g, '').replace(/[−–]/g, '-');

const COMPACT_TEXT_LIMIT = 2000;

/** A paper's title and paragraphs with all whitespace removed. */
export const compactText = perPaper((index, paperId) => compact(paperText(index, paperId)), COMPACT_TEXT_LIMIT);

/** The plain terms of each of a paper's paragraphs. */
export const paragraphTerms = perPaper((index, paperId) =>
  (index.papers.get(paperId)?.paragraphIds ?? []).map((id) => new Set(plainTerms(index.paragraphs.get(id)?.text ?? ''))),
);

/** The plain terms of a paper's title and paragraphs. */
export const paperTerms = perPaper((index, paperId) => {
  const paper = index.papers.get(paperId);
  return new Set([...plainTerms(paper?.title ?? ''), ...paragraphTerms(index, paperId).flatMap((terms) => [...terms])]);
});

/**
 * What the decision reads of each paper, computed after the index is built, not on a question (natural, graph p95
 * 49 → 34 ms; 3 s, +80 MB). Only as many papers as the caches keep (`limit`): a cache is emptied when full, so at
 * ten times the shared corpus (18,000 papers) warming every paper computed about three times what was kept, and
 * its garbage took the retrieval worker from 1.6 to 2.2 GB while it warmed.
 */
export async function warmPaperCaches(index: RetrievalIndex, slice = timeSlicer(), limit = PAPER_CACHE_LIMIT): Promise<void> {
  let n = 0;
  for (const paperId of index.papers.keys()) {
    if (n++ >= limit) break;
    paperFacets(index, paperId);
    paperTechniques(index, paperId);
    titleMaterials(index, paperId);
    if (n <= COMPACT_TEXT_LIMIT) compactText(index, paperId);
    paperTerms(index, paperId);
    await slice();
  }
}
