import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { forgetProcessObjects } from '../common/process-registry.ts';
import { readConfig } from '../config.ts';
import { runIngest } from '../jobs/import-job.ts';
import { openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';
import { corpusPapers, recipeRows, tempDir, writeCorpusJsonl, writeRecordsJsonl } from '../../scripts/test-support/fixtures.ts';
import { corpusCounts } from './corpus-counts.ts';
import type { Database } from './database.ts';
import { countPapersAndParagraphs } from './papers.ts';
import { countRecords } from './records.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

/** The module as a new process loads it: nothing counted in memory. */
async function restarted(): Promise<typeof import('./corpus-counts.ts')> {
  forgetProcessObjects(['corpusCounts']);
  vi.resetModules();
  return import('./corpus-counts.ts');
}

const live = async () => ({ ...(await countPapersAndParagraphs(db.prisma)), records: await countRecords(db.prisma) });

describe(`corpus counts (${testDatabaseKind()})`, () => {
  it('counts once per corpus version, and again after any write to papers, paragraphs or records', async () => {
    expect(await corpusCounts(db)).toEqual({ papers: 0, paragraphs: 0, records: 0 });
    const dir = tempDir();
    await runIngest(db, readConfig({}), [writeCorpusJsonl(dir, 'p.jsonl', corpusPapers), writeRecordsJsonl(dir, 'r.jsonl', recipeRows)], { trigger: 'cli' });
    const first = await corpusCounts(db);
    expect(first).toEqual(await live());
    expect(first.papers).toBe(corpusPapers.length);
    expect(first.records).toBeGreaterThan(0);
    // Unchanged corpus: the very counts kept, not a new count.
    expect(await corpusCounts(db)).toBe(first);
    // A paragraph deleted outside any import moves the stamp: counted again.
    const paragraph = await db.prisma.paragraph.findFirstOrThrow({ select: { id: true } });
    await db.prisma.paragraph.delete({ where: { id: paragraph.id } });
    const after = await corpusCounts(db);
    expect(after).not.toBe(first);
    expect(after).toEqual({ ...first, paragraphs: first.paragraphs - 1 });
    expect(after).toEqual(await live());
  });

  it('keeps them in the database for the next process, under the version they were counted at', async () => {
    const counts = await corpusCounts(db);
    const stamp = await db.prisma.corpusStamp.findUniqueOrThrow({ where: { id: 1 } });
    expect(await db.prisma.corpusCounts.findUniqueOrThrow({ where: { id: 1 } })).toMatchObject({ version: stamp.version, ...counts });
    // A restart (this process's memory forgotten) reads them back: a planted row of this version is what it gives.
    await db.prisma.corpusCounts.update({ where: { id: 1 }, data: { papers: 4242 } });
    expect((await (await restarted()).corpusCounts(db)).papers).toBe(4242);
    // Counts of an older version are counted again (and stored).
    await db.prisma.corpusCounts.update({ where: { id: 1 }, data: { version: stamp.version - 1n } });
    expect(await (await restarted()).corpusCounts(db)).toEqual(await live());
    expect((await db.prisma.corpusCounts.findUniqueOrThrow({ where: { id: 1 } })).version).toBe(stamp.version);
  });

  it('shares one count between callers asking at once', async () => {
    await db.prisma.record.deleteMany({ where: { id: (await db.prisma.record.findFirstOrThrow({ select: { id: true } })).id } });
    const [a, b] = await Promise.all([corpusCounts(db), corpusCounts(db)]);
    expect(a).toBe(b);
    expect(a).toEqual(await live());
  });
});
