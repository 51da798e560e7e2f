import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.ts';
import { applyPendingMigrations, readMigrationsList } from './migrations.ts';
import { openTestDatabase, testDatabaseKind } from '../testing/database.ts';

describe(`migrations (${testDatabaseKind()})`, () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase(); // applies every checked-in migration
  });
  afterAll(async () => {
    await db?.close();
  });
  it('records every checked-in migration and creates the full-text indexes', async () => {
    const applied = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>('SELECT migration_name FROM _prisma_migrations ORDER BY migration_name');
    expect(applied.map((r) => r.migration_name)).toEqual(readMigrationsList().migrationDirectories.map((d) => d.path));
    const idx = await db.prisma.$queryRawUnsafe<{ indexname: string }[]>(`SELECT indexname FROM pg_indexes WHERE indexname LIKE '%fts%' ORDER BY 1`);
    expect(idx.map((i) => i.indexname)).toEqual(['Paper_title_fts_idx', 'Paragraph_text_fts_idx']);
  });
  it('does nothing when the database is up to date', async () => {
    expect(await applyPendingMigrations(db)).toEqual([]);
  });
});
