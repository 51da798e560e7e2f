import { round } from '../common/trace.ts';
import type { PrismaClient } from '../db/generated/client.ts';
import { bibliographyOf, type PaperBibliography } from '../db/papers.ts';
import type { BibliographicField, RetrievalResult } from '../pipelines/types.ts';

/**
 * "Who wrote “…”?", "Who reported a Tc of 39 K in MgB2?", "In which journal was the LSCF cathode paper published?":
 * questions about a paper's publication, not about what it states. Retrieval finds the paper as for any other
 * question; its authors, journal and year come from what the library holds of it (the Paper table, filled by the
 * reader or the import), and an answer says when the library holds no such field instead of quoting a sentence.
 */

// "who wrote/authored", "the authors of", "written by whom", "who reported/found/discovered …" (a finding's authors).
const AUTHORS =
  /\bwho\s+(?:wrote|writes|authored|published|reported|reports|found|discovered|measured|observed|showed|demonstrated|first)\b|\bauthors?\s+(?:of|behind)\b|\bwho\s+(?:are|were|is|was)\s+the\s+(?:authors?|writers?)\b|\b(?:written|authored|published|reported)\s+by\s+whom\b|\bby\s+whom\s+(?:was|is|were)\b|\b(?:list|name|give)\s+the\s+authors\b|\bwhose\s+(?:paper|study|article|work|group|lab)\b/i;
const YEAR =
  /\bwhen\s+(?:was|were|did)\b.*\b(?:published|appear(?:ed)?|written|come out|came out)\b|\b(?:what|which)\s+year\b|\bpublication\s+(?:year|date)\b|\byear\s+of\s+(?:publication|its publication)\b|\bpublished\s+(?:in\s+)?(?:what|which)\s+year\b/i;
const VENUE =
  /\b(?:in\s+)?(?:which|what)\s+(?:journal|venue)\b|\bwhere\s+(?:was|were|is)\b.*\bpublished\b|\bpublished\s+(?:in|by)\s+(?:which|what)\b|\bjournal\s+of\s+publication\b/i;

/** What a question asks of a paper's publication, or null for a question about what papers state. */
export function bibliographicField(body: string): BibliographicField | null {
  if (AUTHORS.test(body)) return 'authors';
  if (VENUE.test(body)) return 'venue';
  if (YEAR.test(body)) return 'year';
  return null;
}

/** The library's bibliographic fields of papers by id (lib/db/papers.ts's bibliographyOf on the app's database). */
export type BibliographyLookup = (paperIds: string[]) => Promise<Map<string, PaperBibliography>>;

export const bibliographyLookup =
  (prisma: PrismaClient): BibliographyLookup =>
  (paperIds) =>
    bibliographyOf(prisma, paperIds);

/**
 * A retrieval result with what the library holds of its top paper's publication when the question asks for it. A
 * refused retrieval stays refused: no paper was found to say anything of.
 */
export async function withBibliography(result: RetrievalResult, lookup: BibliographyLookup): Promise<RetrievalResult> {
  const field = bibliographicField(result.analysis.body);
  const paperId = result.papers[0]?.paperId;
  if (!field || !paperId || result.abstention.abstain) return result;
  const t = performance.now();
  const paper = (await lookup([paperId])).get(paperId);
  const step = {
    step: 'bibliography',
    ms: round(performance.now() - t),
    detail: { field, paper: paperId, held: paper ? held(paper, field) : false },
  };
  return { ...result, ...(paper ? { bibliography: { field, paper } } : {}), trace: [...result.trace, step] };
}

/** Whether the library holds the field asked for. */
export const held = (paper: PaperBibliography, field: BibliographicField): boolean =>
  field === 'authors' ? paper.authors.length > 0 : field === 'year' ? paper.year != null : !!paper.journal;
