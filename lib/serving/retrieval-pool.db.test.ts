import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdmission } from '../common/admission.ts';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../scripts/test-support/fixture-corpus.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { PIPELINES } from '../pipelines/registry.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { createRetrievalPool, prestartRetrievalWorkers, type WorkerAsks } from './retrieval-pool.ts';
import { createRetrievalService, type RetrievalService } from './retrieval-service.ts';

/**
 * Retrieval in worker threads (retrieval-pool.ts): every pipeline retrieves the same evidence in a worker as on
 * the server's thread, with the graph and records the worker asks the server's thread to load, through the
 * server's admission line; a worker that dies leaves the questions to the server's thread.
 */
let db: Database;
let dir: string;
let pooled: RetrievalService;
let local: RetrievalService;
/** What the pooled service logged while it built, stored and handed its first index to the workers. */
let firstBuildLog: string[] = [];
beforeAll(async () => {
  db = await openTestDatabase();
  dir = tempDir();
  await ingestFixtureCorpus(db);
  const cfg = readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' });
  pooled = createRetrievalService(db, cfg, {
    snapshotDir: path.join(dir, 'index'),
    workers: 2,
    admission: createAdmission({ concurrency: 2, maxWaiting: 50 }),
  });
  local = createRetrievalService(db, cfg);
  const logged = vi.spyOn(console, 'log');
  try {
    await pooled.index();
    for (const t0 = Date.now(); !pooled.workers()?.serving && Date.now() - t0 < 60_000; ) await new Promise((r) => setTimeout(r, 100));
  } finally {
    firstBuildLog = logged.mock.calls.map((c) => String(c[0]));
    logged.mockRestore();
  }
}, 120_000);
afterAll(async () => {
  await pooled?.close();
  await db?.close();
});

/** What a pool's workers may ask, answered from an index built on this thread (no records or tuples). */
const asksOf = (index: RetrievalIndex): Promise<WorkerAsks> =>
  Promise.resolve({
    embed: (texts) => index.embedder.embed(texts),
    embedQuery: (texts) => index.embedder.embed(texts),
    embedNames: (texts) => index.nameEmbedder.embed(texts),
    loadRecords: async () => [],
    loadTuples: async () => [],
  });

/** The key of the index the pooled service stored. */
const storedKey = () =>
  fs
    .readdirSync(path.join(dir, 'index'))
    .find((f) => /^retrieval-.*\.v8$/.test(f))!
    .replace(/^retrieval-|\.v8$/g, '');

const questions = [
  'Which paper reports a peak power density of 0.812 W cm−2 at 973 K for La0.6Sr0.4FeO3?',
  'How is the conductivity of the cathode changed by Sr doping?',
];

describe('retrieval in worker threads', () => {
  it('retrieves with every pipeline what the server’s thread retrieves, says which worker did, and waits in the admission line', async () => {
    for (const pipeline of PIPELINES)
      for (const q of questions) {
        const [w, h] = await Promise.all([pooled.retrieve(q, pipeline), local.retrieve(q, pipeline)]);
        expect(w.trace.map((s) => s.step).slice(0, 2)).toEqual(['admission', 'worker']);
        expect(w.evidence.map((e) => e.id)).toEqual(h.evidence.map((e) => e.id));
        expect(w.abstention?.abstain).toBe(h.abstention?.abstain);
      }
  }, 120_000);

  it('keeps a scope and a top k across the hand-over', async () => {
    const all = await local.retrieve(questions[0], 'hybrid');
    const paper = all.evidence[0].paperId!;
    const scoped = await pooled.retrieve(questions[0], 'hybrid', { k: 2, scope: { paperIds: new Set([paper]), description: 'one paper' } });
    expect(scoped.trace.some((s) => s.step === 'worker')).toBe(true);
    expect(scoped.evidence.length).toBeLessThanOrEqual(2);
    expect(scoped.evidence.every((e) => e.paperId === paper)).toBe(true);
  });

  it('lets go of the server thread’s build once it is stored and keeps its graph index before the workers read them (a first start never holds both)', () => {
    const letGo = firstBuildLog.findIndex((l) => l.includes('let go of its retrieval index once it was stored'));
    const graphKept = firstBuildLog.findIndex((l) => l.includes('the graph index is kept for the workers'));
    const served = firstBuildLog.findIndex((l) => /retrieval worker\(s\) serve the index/.test(l));
    expect(letGo).toBeGreaterThanOrEqual(0);
    // The workers read the graph index this thread kept, as a restart's do, instead of building their own.
    expect(graphKept).toBeGreaterThan(letGo);
    expect(served).toBeGreaterThan(graphKept);
    expect(fs.readdirSync(path.join(dir, 'index')).filter((f) => /^graph-.*\.v8$/.test(f))).toEqual([`graph-${storedKey()}.v8`]);
  });

  it('a first start answers a question that waited for the build from the workers, not from the build the server thread let go of', async () => {
    const fresh = tempDir();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const first = createRetrievalService(db, readConfig({ ASSAY_DATA_DIR: fresh, ASSAY_LOCAL_EMBEDDER: 'ngram' }), {
      snapshotDir: path.join(fresh, 'index'),
      workers: 1,
    });
    try {
      const r = await first.retrieve(questions[0], 'hybrid');
      const lines = log.mock.calls.map((c) => String(c[0]));
      expect(lines.findIndex((l) => l.includes('let go of its retrieval index once it was stored'))).toBeGreaterThanOrEqual(0);
      expect(lines.some((l) => /retrieval worker\(s\) serve the index/.test(l))).toBe(true);
      expect(r.trace.some((s) => s.step === 'worker')).toBe(true);
      expect(r.evidence.map((e) => e.id)).toEqual((await local.retrieve(questions[0], 'hybrid')).evidence.map((e) => e.id));
    } finally {
      log.mockRestore();
      await first.close();
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('lets go of the server thread’s copy of the index once the workers serve it, and reads it back when it is asked for', async () => {
    await expect.poll(() => pooled.workers()?.serverThreadCopy, { timeout: 10_000 }).toBe(false);
    expect((await pooled.info()).paragraphs).toBeGreaterThan(0);
    expect(pooled.workers()?.serverThreadCopy).toBe(false);
    const index = await pooled.index(); // an evaluation's, say
    expect(index.paragraphs.size).toBe((await pooled.info()).paragraphs);
  });

  it('reports workers that cannot read their index as failed, never as serving', async () => {
    const logged: string[] = [];
    const pool = createRetrievalPool(readConfig({ ASSAY_DATA_DIR: dir }), 1, (l) => logged.push(l));
    const index = await local.index();
    await pool.serve(path.join(dir, 'nowhere'), 'no-such-key', asksOf(index));
    expect(pool.readyFor('no-such-key')).toBe(false);
    expect(pool.failedOn('no-such-key')).toBe(true);
    expect(logged.join('\n')).toMatch(/could not start \(no stored index under no-such-key\)/);
    await pool.close();
  });

  it('refuses workers whose index the process cannot serve, with the reason', async () => {
    const logged: string[] = [];
    const pool = createRetrievalPool(readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' }), 1, (l) => logged.push(l));
    await pool.serve(path.join(dir, 'index'), storedKey(), asksOf(await local.index()), async (info) => `built with ${info.embedderId}`);
    expect(pool.failedOn(storedKey())).toBe(true);
    expect(pool.serving()).toBe(false);
    expect(logged.join('\n')).toMatch(/could not start \(built with local-hash-/);
    await pool.close();
  });

  it('a restart: workers started ahead on the stored index answer the first question, and the server thread reads no copy', async () => {
    const cfg = readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(prestartRetrievalWorkers(cfg, 1, path.join(dir, 'index'))).toBe(storedKey());
      const restarted = createRetrievalService(db, cfg, { snapshotDir: path.join(dir, 'index'), workers: 1 });
      const [r, h] = await Promise.all([restarted.retrieve(questions[1], 'hybrid'), local.retrieve(questions[1], 'hybrid')]);
      expect(r.trace.some((s) => s.step === 'worker')).toBe(true);
      expect(r.evidence.map((e) => e.id)).toEqual(h.evidence.map((e) => e.id));
      expect(restarted.workers()).toMatchObject({ serving: true, serverThreadCopy: false });
      expect((await restarted.info()).paragraphs).toBe((await local.info()).paragraphs);
      expect(restarted.workers()?.serverThreadCopy).toBe(false);
      expect(log.mock.calls.flat().join('\n')).toMatch(/serve the index, ready in [\d.]+ s \(started ahead/);
      // The first answer cues the workers' warm-up; health (and bench load) learn when it is over.
      await expect.poll(() => restarted.workers()?.warmingCaches, { timeout: 30_000 }).toBe(false);
      expect(log.mock.calls.flat().join('\n')).toMatch(/warmed their paper caches in [\d.]+ s/);
      await restarted.close();
    } finally {
      log.mockRestore();
    }
  });

  it('stops workers started ahead on an index that is no longer the corpus’s', async () => {
    const cfg = readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' });
    const stale = path.join(dir, 'index', 'retrieval-0123456789abcdef01234567.v8');
    fs.copyFileSync(path.join(dir, 'index', `retrieval-${storedKey()}.v8`), stale);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(prestartRetrievalWorkers(cfg, 1, path.join(dir, 'index'))).toBe('0123456789abcdef01234567');
      const restarted = createRetrievalService(db, cfg, { snapshotDir: path.join(dir, 'index'), workers: 1 });
      const r = await restarted.retrieve(questions[0], 'hybrid');
      expect(r.trace.some((s) => s.step === 'worker')).toBe(true);
      expect(log.mock.calls.flat().join('\n')).not.toMatch(/started ahead/);
      await restarted.close();
    } finally {
      log.mockRestore();
      fs.rmSync(stale, { force: true });
    }
  });

  it('stops a worker held past a question’s time, answers that question at once, and a new worker answers the next', async () => {
    const index = await local.index();
    const key = storedKey();
    const logged: string[] = [];
    const pool = createRetrievalPool(readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' }), 1, (l) => logged.push(l), { graceMs: 0, pingMs: 300 });
    try {
      await pool.serve(path.join(dir, 'index'), key, asksOf(index));
      // A first question loads what the worker loads on first use (the spelling step's English dictionary): else,
      // on a busy machine, loading it outlasts the held question's budget, the worker ends that question itself
      // before the step that holds its thread, and answers the ping.
      await pool.retrieve(questions[0], 'hybrid', { deadline: { at: Date.now() + 60_000, budgetMs: 60_000 } });
      // Work that cannot check the deadline: two million distinct made-up words (the routes take 2,000 characters) hold
      // the worker's thread in one step for many seconds (the spelling step asks the dictionary about each distinct word
      // once: a word repeated is asked once, and no longer holds it), so it can neither end the question itself nor
      // answer the pool's ping. A budget well under the time that step takes on a quiet machine: the worker is still
      // held when the pool pings it.
      const words = Array.from({ length: 2_000_000 }, (_, i) => `zq${i.toString(26).replace(/[0-9]/g, (d) => 'qrstuvwxyz'[Number(d)])}`);
      const held = pool.retrieve(words.join(' '), 'hybrid', { deadline: { at: Date.now() + 500, budgetMs: 500 } });
      // Another visitor's question, sent to the same worker behind the held one: it is sent again to the new worker
      // and answered there, not failed with the held one's worker.
      const innocent = pool.retrieve(questions[1], 'hybrid', { deadline: { at: Date.now() + 60_000, budgetMs: 60_000 } });
      await expect(held).rejects.toThrow(/took too long to analyse/);
      await expect.poll(() => pool.restarts(), { timeout: 10_000 }).toBe(1);
      expect(logged.join('\n')).toMatch(/did not answer .* it was stopped, and a new one reads the index/);
      expect((await innocent).evidence.map((e) => e.id)).toEqual((await local.retrieve(questions[1], 'hybrid')).evidence.map((e) => e.id));
      const next = await pool.retrieve(questions[0], 'hybrid', { deadline: { at: Date.now() + 60_000, budgetMs: 60_000 } });
      expect(next.evidence.map((e) => e.id)).toEqual((await local.retrieve(questions[0], 'hybrid')).evidence.map((e) => e.id));
      expect(pool.serving()).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('fails a question its worker stops under instead of leaving it to hang', async () => {
    const index = await local.index();
    const key = storedKey();
    const pool = createRetrievalPool(readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' }), 1, () => {});
    await pool.serve(path.join(dir, 'index'), key, asksOf(index));
    expect(pool.readyFor(key)).toBe(true);
    const asked = pool.retrieve(questions[0], 'hybrid', {});
    await pool.close();
    await expect(asked).rejects.toThrow(/retrieval worker stopped/);
  });

  it('after the corpus changes, the warm-up builds the new index and the workers then serve it', async () => {
    const before = storedKey();
    await db.prisma.corpusStamp.update({ where: { id: 1 }, data: { version: { increment: 1 } } });
    expect(await pooled.whenServing()).toBe(true);
    expect(storedKey()).not.toBe(before);
    // Without workers there is nothing to wait for: this thread serves.
    expect(await local.whenServing()).toBe(false);
    expect(pooled.workers()).toMatchObject({ serving: true });
    const r = await pooled.retrieve(questions[0], 'hybrid');
    expect(r.trace.some((s) => s.step === 'worker')).toBe(true);
    expect(r.evidence.map((e) => e.id)).toEqual((await local.retrieve(questions[0], 'hybrid')).evidence.map((e) => e.id));
  });

  it('retrieves on the server’s thread when the workers are gone', async () => {
    await pooled.close();
    expect(pooled.workers()?.serving).toBe(false);
    const r = await pooled.retrieve(questions[0], 'hybrid');
    expect(r.trace.some((s) => s.step === 'worker')).toBe(false);
    expect(r.evidence.map((e) => e.id)).toEqual((await local.retrieve(questions[0], 'hybrid')).evidence.map((e) => e.id));
  });
});
