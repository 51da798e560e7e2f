import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import { runIngest } from '../jobs/import-job.ts';
import { openTestDatabase } from '../testing/database.ts';
import { corpusPapers, tempDir, writeCorpusJsonl } from '../testing/fixtures.ts';
import type { Database } from './database.ts';
import { corpusVersion } from './retrieval-corpus.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db?.close());

describe('corpusVersion', () => {
  it('changes with every write retrieval indexes, by triggers, and with nothing else', async () => {
    const empty = await corpusVersion(db);
    expect(await corpusVersion(db)).toBe(empty);
    await runIngest(db, readConfig({}), [writeCorpusJsonl(tempDir(), 'papers.jsonl', corpusPapers.slice(0, 3))], { trigger: 'cli' });
    const imported = await corpusVersion(db);
    expect(imported).not.toBe(empty);

    // Each indexed table bumps it, whoever writes (here raw SQL no module knows about).
    let last = imported;
    for (const sql of [
      `UPDATE "Paper" SET "title" = "title" WHERE false`,
      `UPDATE "Paragraph" SET "section" = "section" WHERE "ordinal" = 0`,
      `DELETE FROM "Mention" WHERE false`,
      `UPDATE "Record" SET "kind" = "kind" WHERE false`,
      `UPDATE "PaperRecord" SET "extractor" = "extractor" WHERE false`,
      `UPDATE "GraphTuple" SET "relation" = "relation" WHERE false`,
      `UPDATE "GraphEntity" SET "label" = "label" WHERE false`,
    ]) {
      await db.prisma.$executeRawUnsafe(sql);
      const now = await corpusVersion(db);
      expect({ sql, changed: now !== last }).toEqual({ sql, changed: true });
      last = now;
    }
    // Reads, answers and runs leave it alone: the index is not rebuilt for them.
    await db.prisma.paper.findMany();
    await db.prisma.$executeRawUnsafe(`UPDATE "IngestRun" SET "message" = "message"`);
    await db.prisma.$executeRawUnsafe(`UPDATE "Answer" SET "text" = "text"`);
    expect(await corpusVersion(db)).toBe(last);
  });
});
