import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import { runIngest } from '../jobs/import-job.ts';
import { openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';
import { corpusPapers, recipeRows, tempDir, writeCorpusJsonl, writeRecordsJsonl } from '../../scripts/test-support/fixtures.ts';
import type { Database } from './database.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  const dir = tempDir();
  await runIngest(db, readConfig({}), [writeCorpusJsonl(dir, 'p.jsonl', corpusPapers), writeRecordsJsonl(dir, 'sol-gel.jsonl', recipeRows)], {
    trigger: 'cli',
  });
});
afterAll(async () => {
  await db?.close();
});

const analysed = async () =>
  new Set(
    (await db.prisma.$queryRaw<{ t: string; c: string }[]>`SELECT tablename AS t, attname AS c FROM pg_stats WHERE schemaname = 'public'`).map(
      (r) => `${r.t}.${r.c}`,
    ),
  );

describe(`planner statistics after an import (${testDatabaseKind()})`, () => {
  it('exist for the columns each stage filled and later queries filter on', async () => {
    const stats = await analysed();
    for (const column of [
      'Paper.doi',
      'Paragraph.paperId',
      'Paragraph.role',
      'Record.doi',
      'Record.paperId',
      'Mention.paragraphId',
      'PaperRecord.paperId',
      'GraphTuple.subjectId',
      'GraphEntity.key',
    ])
      expect(stats, column).toContain(column);
  });

  it.skipIf(testDatabaseKind() === 'postgres')('leave out the texts and documents no plan depends on (PGlite has no autovacuum to add them)', async () => {
    const stats = await analysed();
    for (const column of ['Paragraph.text', 'Record.data', 'PaperRecord.record']) expect(stats, column).not.toContain(column);
  });
});
