import type { Database } from '../db/database.ts';
import { applyPendingMigrations } from '../db/migrations.ts';
import { openScratchPostgres } from '../db/scratch-postgres.ts';

/**
 * A fresh, migrated database for one test file. `ASSAY_TEST_DB=postgres` (with TEST_DATABASE_URL) runs the
 * same tests on a real PostgreSQL server, in a throw-away database that is dropped afterwards; otherwise an
 * in-memory PGlite. The same test files run on both: that is the parity suite.
 */
export const testDatabaseKind = (): 'pglite' | 'postgres' => (process.env.ASSAY_TEST_DB === 'postgres' ? 'postgres' : 'pglite');

export async function openTestDatabase(): Promise<Database> {
  if (testDatabaseKind() === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('ASSAY_TEST_DB=postgres needs TEST_DATABASE_URL (a server where the test user may CREATE DATABASE)');
    const db = await openScratchPostgres(adminUrl);
    await applyPendingMigrations(db);
    return db;
  }
  const { openPgliteDatabase } = await import('../db/pglite.ts');
  const db = await openPgliteDatabase('memory');
  await applyPendingMigrations(db);
  return db;
}

/** Everything a user can see of the stored literature, in a stable order: equal digests = equal databases. */
export async function databaseDigest(db: Database) {
  const papers = await db.prisma.paper.findMany({
    orderBy: [{ doi: 'asc' }, { source: 'asc' }, { sourceId: 'asc' }, { contentHash: 'asc' }],
    select: {
      doi: true, title: true, authors: true, journal: true, year: true, license: true, source: true, sourceId: true,
      domain: true, abstract: true, format: true, contentHash: true, fingerprint: true,
      paragraphs: { orderBy: { ordinal: 'asc' }, select: { ordinal: true, text: true, section: true, kind: true, externalId: true, page: true } },
      records: { orderBy: { contentHash: 'asc' }, select: { contentHash: true } },
    },
  });
  const records = await db.prisma.record.findMany({ orderBy: [{ source: 'asc' }, { contentHash: 'asc' }], select: { kind: true, source: true, contentHash: true, doi: true, title: true, data: true } });
  return { papers, records };
}
