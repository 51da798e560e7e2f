import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmission } from '../common/admission.ts';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { openTestDatabase } from '../testing/database.ts';
import { ingestFixtureCorpus } from '../testing/fixture-corpus.ts';
import { tempDir } from '../testing/fixtures.ts';
import { PIPELINES } from './registry.ts';
import { createRetrievalPool } from './retrieval-pool.ts';
import { createRetrievalService, type RetrievalService } from './service.ts';

/**
 * Retrieval in worker threads (retrieval-pool.ts): every pipeline retrieves the same evidence in a worker as on
 * the server's thread, with the graph and records the worker asks the server's thread to load, through the
 * server's admission line; a worker that dies leaves the questions to the server's thread.
 */
let db: Database;
let dir: string;
let pooled: RetrievalService;
let local: RetrievalService;
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
  await pooled.index();
  for (const t0 = Date.now(); !pooled.workers()?.serving && Date.now() - t0 < 60_000; ) await new Promise((r) => setTimeout(r, 100));
}, 120_000);
afterAll(async () => {
  await pooled?.close();
  await db?.close();
});

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
    await pool.serve(index, path.join(dir, 'nowhere'), 'no-such-key', { recordCount: 0, loadRecords: async () => [], loadGraph: async () => [] });
    expect(pool.readyFor('no-such-key')).toBe(false);
    expect(pool.failedOn('no-such-key')).toBe(true);
    expect(logged.join('\n')).toMatch(/could not start \(no stored index under no-such-key\)/);
    await pool.close();
  });

  it('fails a question its worker stops under instead of leaving it to hang', async () => {
    const index = await local.index();
    const key = fs
      .readdirSync(path.join(dir, 'index'))
      .find((f) => f.startsWith('retrieval-'))!
      .replace(/^retrieval-|\.v8$/g, '');
    const pool = createRetrievalPool(readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' }), 1, () => {});
    await pool.serve(index, path.join(dir, 'index'), key, { recordCount: 0, loadRecords: async () => [], loadGraph: async () => [] });
    expect(pool.readyFor(key)).toBe(true);
    const asked = pool.retrieve(questions[0], 'hybrid', {});
    await pool.close();
    await expect(asked).rejects.toThrow(/retrieval worker stopped/);
  });

  it('retrieves on the server’s thread when the workers are gone', async () => {
    await pooled.close();
    expect(pooled.workers()?.serving).toBe(false);
    const r = await pooled.retrieve(questions[0], 'hybrid');
    expect(r.trace.some((s) => s.step === 'worker')).toBe(false);
    expect(r.evidence.map((e) => e.id)).toEqual((await local.retrieve(questions[0], 'hybrid')).evidence.map((e) => e.id));
  });
});
