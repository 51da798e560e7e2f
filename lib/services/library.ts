import { startBackgroundIngest } from '../jobs/background.ts';
import { paperVersions, restorePaperVersion } from '../db/paper-versions.ts';
import { metadataOf } from '../db/paper-metadata.ts';
import { corpusCounts } from '../db/corpus-counts.ts';
import { getPaper, libraryFacets, type SearchField, searchPapers } from '../db/papers.ts';
import { recordsForPaper } from '../db/records.ts';
import { type PaperFilters, resolvePaperFilters } from '../structure/paper-filters.ts';
import { Deadline } from '../common/deadline.ts';
import { withinTime } from '../db/within-time.ts';
import { appContext, appDatabase } from './app.ts';
import { readRecord } from '../structure/recipe-view.ts';

/** The library: totals, facets, search; a paper's page; restoring a paper's earlier version; the health check is in health.ts. */

export type { SearchField };
/** How many words a full-text search reads (the library page says when more were given). */
export { MAX_SEARCH_WORDS } from '../db/web-search.ts';

export interface LibrarySearch extends PaperFilters {
  q?: string;
  field?: SearchField;
  page?: number;
  pageSize?: number;
}

/**
 * Papers matching a search (filters in any spelling and unit), a page at a time, within the request's time budget
 * (ASSAY_QUESTION_BUDGET_SECONDS): past it the search ends with a message asking for fewer words.
 */
export async function searchLibrary(search: LibrarySearch) {
  const { db, cfg } = await appContext();
  const deadline = Deadline.in(cfg.budgetMs, 'search');
  const filters = resolvePaperFilters(search);
  return withinTime(db, deadline, (client) => searchPapers(client, filters));
}

/** What the library holds: paper, paragraph and record counts and the values its filters offer. */
export async function libraryOverview() {
  const db = await appDatabase();
  const [counts, facets] = await Promise.all([corpusCounts(db), libraryFacets(db.prisma)]);
  return { ...counts, facets };
}

/** A paper with its paragraphs, structure, linked records and earlier versions; null when there is none. */
export async function paperPage(id: string) {
  const db = await appDatabase();
  const paper = await getPaper(db.prisma, id);
  if (!paper) return null;
  const [records, versions, metadata] = await Promise.all([
    recordsForPaper(db.prisma, paper.id, 50),
    paperVersions(db.prisma, paper.id),
    metadataOf(db, paper.id),
  ]);
  // The paper's structure read as recipes and measured values (lib/structure/recipe-view.ts), for the page's aside.
  const reading = paper.structure ? readRecord({ kind: 'paper-structure', value: paper.structure.record }) : null;
  return { paper, records, versions, metadata, reading };
}

/**
 * Restores an earlier version of a paper: its text and metadata come back, the text it replaces is kept as a
 * version in turn, and a job (shown on /import) structures the restored paragraphs and re-extracts its graph.
 */
export async function restoreVersion(versionId: string): Promise<{ paperId: string }> {
  const { db, cfg } = await appContext();
  const { paperId, title } = await restorePaperVersion(db.prisma, versionId);
  await startBackgroundIngest(db, cfg, [], 'restore', {
    changed: true,
    shownInputs: [`restored an earlier version of ${title ? `“${title}”` : paperId}`],
  });
  return { paperId };
}
