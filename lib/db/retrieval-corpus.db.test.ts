import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import { runIngest } from '../jobs/import-job.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { corpusPapers, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';
import type { Database } from './database.ts';
import { corpusVersion, loadRetrievalCorpus } from './retrieval-corpus.ts';

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

describe('loadRetrievalCorpus', () => {
  it('reads the paragraphs a page at a time, in paper and reading order, the same whatever the page size', async () => {
    await runIngest(db, readConfig({}), [writeCorpusJsonl(tempDir(), 'more.jsonl', corpusPapers.slice(3, 6))], { trigger: 'cli' });
    const whole = await loadRetrievalCorpus(db);
    expect(whole.paragraphs.length).toBeGreaterThan(3);
    expect(new Set(whole.paragraphs.map((p) => p.paperId)).size).toBeGreaterThan(1);
    const key = (p: { paperId: string; ordinal: number }) => [p.paperId, p.ordinal] as const;
    const sorted = [...whole.paragraphs].sort((a, b) => (a.paperId < b.paperId ? -1 : a.paperId > b.paperId ? 1 : a.ordinal - b.ordinal));
    expect(whole.paragraphs.map(key)).toEqual(sorted.map(key));
    for (const size of [1, 2, 5]) expect((await loadRetrievalCorpus(db, size)).paragraphs).toEqual(whole.paragraphs);
  });
});
