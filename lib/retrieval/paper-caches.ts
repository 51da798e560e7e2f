import { timeSlicer } from '../common/yield.ts';
import { PAPER_CACHE_LIMIT, paperFacets, paperTechniques, paperText, perPaper, titleMaterials } from './coverage.ts';
import type { RetrievalIndex } from './index.ts';
import { warmCorpusFamilies } from './gate/material-match.ts';

/**
 * What the abstention decision reads of each paper (its words, its text without spaces), cached per paper and
 * index, and the warm-up that fills these caches and coverage's after an index is built or read back.
 */

/** `s` without whitespace, with Unicode minus signs and dashes as hyphens: how a name is looked for in a paper's text. */
export const compact = (s: string) => s.normalize('NFKC').replace(/\s+/g, '').replace(/[−–]/g, '-');

const COMPACT_TEXT_LIMIT = 2000;

/** A paper's title and paragraphs with all whitespace removed. */
export const compactText = perPaper((index, paperId) => compact(paperText(index, paperId)), COMPACT_TEXT_LIMIT);

/** Which of some terms a paper states: in each of its paragraphs (in their order), and anywhere (title or paragraphs). */
export interface StatedTerms {
  inParagraphs: Set<string>[];
  inPaper: Set<string>;
}

/**
 * Which of `terms` (plain terms, the paragraph index's analyzer) the paper's paragraphs and title state, read from the
 * BM25 postings of the paragraphs' text. The decision used to keep every paper's paragraphs as sets of their terms:
 * 57 MB for the shared corpus, so at ten times it only 5,000 papers were kept, and a question whose top paper was
 * another spent up to 30 ms re-reading it. A lookup of a question's dozen words in the postings keeps nothing.
 */
export function statedTerms(index: RetrievalIndex, paperId: string, terms: Iterable<string>): StatedTerms {
  const paper = index.papers.get(paperId);
  const paragraphs = paper?.paragraphIds ?? [];
  const docs = paragraphs.map((id) => index.paragraphLexical.docOf(id) ?? -1);
  const inParagraphs = paragraphs.map(() => new Set<string>());
  const inPaper = new Set<string>();
  const title = new Set(paper?.titleTerms ?? []);
  for (const term of new Set(terms)) {
    if (title.has(term)) inPaper.add(term);
    const holding = index.paragraphLexical.docsHolding('text', term, docs);
    if (holding.size === 0) continue;
    inPaper.add(term);
    docs.forEach((doc, i) => {
      if (holding.has(doc)) inParagraphs[i].add(term);
    });
  }
  return { inParagraphs, inPaper };
}

/**
 * What the decision reads of each paper, computed after the index is built, not on a question (natural, graph p95
 * 49 → 34 ms). Only as many papers as the caches keep (`limit`): a cache is emptied when full, and warming past it
 * computed what was thrown away (at ten times the shared corpus with 5,000 kept, its garbage took the retrieval
 * worker from 1.6 to 2.2 GB while it warmed). First the corpus's formula families, which the search reads too, and
 * the paragraph index's document numbers.
 */
export async function warmPaperCaches(index: RetrievalIndex, slice = timeSlicer(), limit = PAPER_CACHE_LIMIT): Promise<void> {
  warmCorpusFamilies(index);
  // The paragraph index's map from ids to document numbers, which statedTerms reads (89,000 entries at ×10).
  index.paragraphLexical.docOf('');
  let n = 0;
  for (const paperId of index.papers.keys()) {
    if (n++ >= limit) break;
    paperFacets(index, paperId);
    paperTechniques(index, paperId);
    titleMaterials(index, paperId);
    if (n <= COMPACT_TEXT_LIMIT) compactText(index, paperId);
    await slice();
  }
}
