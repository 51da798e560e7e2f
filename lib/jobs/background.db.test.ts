import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { getRetrievalService } from '../serving/app-service.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../scripts/test-support/fixture-corpus.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { loadRetrievalCorpus } from '../db/retrieval-corpus.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../embedding/local-hash.ts';
import { buildRetrievalIndex, type RetrievalIndex } from '../retrieval/index.ts';
import { createRun, getRun } from '../db/ingest-runs.ts';
import { enqueueJob } from '../db/jobs.ts';
import { runsAsFollowed, warmIndexes, warmOnStart } from './background.ts';
import { warmingIndexes } from './warming.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await ingestFixtureCorpus(db);
});
afterAll(async () => {
  await db?.close();
});

describe('the server start on a corpus', () => {
  it('builds and keeps the indexes in the background, and says so while it does', async () => {
    const dir = tempDir();
    const cfg = readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' });
    warmOnStart(db, cfg);
    expect(warmingIndexes()).toBe(true);
    await expect.poll(warmingIndexes, { timeout: 60_000 }).toBe(false);
    // The app's service holds the warm index and its graph; both are kept in the data folder for the next start.
    const index = await getRetrievalService(db, cfg).index();
    expect(index.paragraphs.size).toBeGreaterThan(0);
    expect((await index.graph.get()).tuples.size).toBeGreaterThan(0);
    const kept = () => (fs.existsSync(path.join(dir, 'index')) ? fs.readdirSync(path.join(dir, 'index')).filter((f) => f.endsWith('.v8')) : []);
    await expect.poll(() => kept().length, { timeout: 10_000 }).toBe(2);
    // The import that made this corpus wrote no records index (a CLI import without its stage, as after an upgrade):
    // the start queues its stage, whose file lands beside the indexes and whose marker goes once it is written.
    const records = () => fs.readdirSync(path.join(dir, 'index')).filter((f) => f.startsWith('records-'));
    await expect.poll(() => records().length, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => records().filter((f) => f.endsWith('.writing')).length, { timeout: 30_000 }).toBe(0);
    expect(records()).toHaveLength(1);
    expect(records()[0]).toMatch(/^records-[0-9a-f]+\.bin$/);
    expect((await db.prisma.job.findMany({ where: { kind: 'records-index' } })).map((j) => j.state)).toEqual(['done']);
  });
});

/** Whether a promise has settled by now: a `then` on a settled promise runs before one queued after it. */
const settledNow = (p: Promise<unknown>) => Promise.race([p.then(() => true), Promise.resolve().then(() => false)]);

describe('the warm-up of a server with retrieval workers', () => {
  const fresh = async (): Promise<RetrievalIndex> => {
    const corpus = await loadRetrievalCorpus(db);
    return buildRetrievalIndex(corpus, localTextEmbedder(fitLocalHashEmbedder(corpus.paragraphs.map((p) => p.text))));
  };
  const workers = { size: 1, serving: false, warmingCaches: false, serverThreadCopy: true, restarts: 0 };

  it('builds the graph index of the index this thread serves while the workers do not (the model still embedding the corpus)', async () => {
    const index = await fresh();
    await warmIndexes({ workers: () => workers, whenServing: async () => false, index: async () => index }, { records: false });
    // Built by the warm-up, not left to the first graph or hybrid question (which ended in 503 "still being built").
    expect(await settledNow(index.graph.get())).toBe(true);
  });

  it('reads no copy in this thread once the workers serve the index', async () => {
    const index = await fresh();
    let asked = 0;
    const service = {
      workers: () => ({ ...workers, serving: true }),
      whenServing: async () => true,
      index: async () => {
        asked++;
        return index;
      },
    };
    await warmIndexes(service);
    expect(asked).toBe(0);
    expect(await settledNow(index.graph.get())).toBe(false);
  });
});

describe('an interrupted run as a client follows it', () => {
  it('is shown queued while its resume waits in the job queue, and interrupted again once no job holds it', async () => {
    const run = await createRun(db.prisma, 'upload', ['a.jsonl'], 'interrupted');
    const followed = async () => (await runsAsFollowed(db, [run]))[0].status;
    expect(await followed()).toBe('interrupted');
    // Resume accepted: the job is queued, the row still says interrupted until the job begins.
    await enqueueJob(db, { id: run.id, kind: 'import', label: 'resume', payload: { runId: run.id, resume: true } });
    expect((await getRun(db.prisma, run.id))?.status).toBe('interrupted');
    expect(await followed()).toBe('queued');
    await db.prisma.job.update({ where: { id: run.id }, data: { state: 'running' } });
    expect(await followed()).toBe('queued');
    // The job ended without resuming it (an upload stopped while reading its files waits for Resume).
    await db.prisma.job.update({ where: { id: run.id }, data: { state: 'done' } });
    expect(await followed()).toBe('interrupted');
    // Runs in other states are as stored.
    const done = await createRun(db.prisma, 'upload', ['b.jsonl'], 'succeeded');
    await enqueueJob(db, { id: done.id, kind: 'import', label: 'x', payload: {} });
    expect((await runsAsFollowed(db, [done]))[0].status).toBe('succeeded');
    await db.prisma.job.deleteMany({ where: { id: { in: [run.id, done.id] } } });
  });
});
