import type { Database } from './database.ts';

/**
 * The planner's statistics of the tables an import stage has just filled. The embedded PostgreSQL (PGlite) runs as a
 * single process without autovacuum, so its tables are never analysed: the planner guesses, and at ten times the
 * shared corpus it chose a sequential scan of every paragraph (89,418 rows) to read the paragraphs of 100 papers,
 * 128 ms a page, 23 s of the graph stage. PostgreSQL's autovacuum analyses a table only some time after a bulk load.
 * Only the columns queries filter, join or sort on are sampled: the texts and JSON documents cost most to analyse
 * (the paragraphs' texts took 6.3 of 7 s at ×10) and no plan depends on them.
 */
const KEY_COLUMNS = {
  Paper: ['id', 'doi', 'source', 'sourceId', 'contentHash', 'year', 'domain'],
  Paragraph: ['id', 'paperId', 'ordinal', 'externalId', 'section', 'kind', 'role', 'method', 'structuredBy'],
  Record: ['id', 'kind', 'source', 'contentHash', 'doi', 'paperId'],
  Mention: ['id', 'paragraphId', 'paperId', 'kind', 'type', 'key', 'valueMin', 'valueMax'],
  PaperRecord: ['paperId', 'extractor'],
  GraphEntity: ['id', 'key', 'kind', 'mergedIntoId', 'mergeMethod'],
  GraphTuple: ['id', 'subjectId', 'relation', 'objectId', 'paperId', 'paragraphId', 'causal', 'stamp'],
} as const;

export type AnalysedTable = keyof typeof KEY_COLUMNS;

/** Refreshes the planner's statistics of `tables` (their key columns), one statement each. */
export async function refreshStatistics(db: Database, tables: AnalysedTable[]): Promise<void> {
  for (const table of tables) await db.bulkExecute(`ANALYZE "${table}" (${KEY_COLUMNS[table].map((c) => `"${c}"`).join(', ')})`, []);
}
