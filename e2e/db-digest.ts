import { createHash } from 'node:crypto';
import { openPgliteDatabase } from '../lib/db/pglite.ts';
import { databaseDigest, enrichmentDigest } from '../scripts/test-support/database.ts';

/**
 * Prints, for the embedded database in the given data folder, counts and a digest of everything stored
 * (papers, paragraphs, records, structured paragraphs, paper records, graph entities and tuples) without
 * generated ids: two databases with equal digests hold the same content.
 */
const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: node --import tsx e2e/db-digest.ts <data dir>');
const db = await openPgliteDatabase(dataDir);
try {
  const stored = await databaseDigest(db);
  const enriched = await enrichmentDigest(db);
  const hash = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex');
  console.log(
    JSON.stringify({
      papers: stored.papers.length,
      records: stored.records.length,
      structuredParagraphs: enriched.paragraphs.filter((p) => p.role !== null).length,
      paperRecords: enriched.records.length,
      entities: enriched.entities.length,
      tuples: enriched.tuples.length,
      stored: hash(stored),
      enriched: hash(enriched),
    }),
  );
} finally {
  await db.close();
}
