import type { Database } from '../../lib/db/database.ts';
import { applyPendingMigrations } from '../../lib/db/migrations.ts';
import { openScratchPostgres } from '../../lib/db/scratch-postgres.ts';

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
  const { openPgliteDatabase } = await import('../../lib/db/pglite.ts');
  const db = await openPgliteDatabase('memory');
  await applyPendingMigrations(db);
  return db;
}

export { databaseDigest, enrichmentDigest } from '../../lib/db/digest.ts';
