import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AssayConfig, readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { loadRetrievalCorpus } from '../db/retrieval-corpus.ts';
import { runIngest } from '../jobs/import-job.ts';
import { openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../scripts/test-support/fake-openai.ts';
import { inventedPapers, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';
import { readyJobWorkers, spawnJobWorker } from '../../scripts/test-support/job-workers.ts';
import { createLentEmbedders } from './select.ts';
import { embedInShards } from './shards.ts';

/**
 * Embedding shards across worker processes (issue 66): two `npm run worker`-like processes on one PostgreSQL take
 * the shards of one embedding pass, each shard is done once, and when one process is killed in the middle of a shard
 * the other takes it over; only the killed shard's batch in flight is embedded twice. PGlite admits one process, so
 * there this file has nothing to test (lib/serving/dense-growth.db.test.ts runs shards in one process on both).
 */
const onPostgres = testDatabaseKind() === 'postgres';
const PAPERS = 60;
const PER_SHARD = 6;

let db: Database & { url?: string };
let fake: FakeOpenAI;
let cfg: AssayConfig;
const dir = tempDir('assay-shard-workers-');
const children: ChildProcess[] = [];

const env = (): Record<string, string> => ({
  ASSAY_LLM_BASE_URL: fake.base,
  ASSAY_EMBEDDING_MODEL: 'fake-embedder',
  ASSAY_ENRICHMENT: 'off',
});

function startWorker(): ChildProcess {
  const child = spawnJobWorker({ ...env(), DATABASE_URL: db.url, PROBE_DIR: dir });
  children.push(child);
  return child;
}
const pidOf = (owner: string | null) => Number(owner?.split(':')[1]);

beforeAll(async () => {
  if (!onPostgres) return;
  db = await openTestDatabase();
  // Each call to the embeddings endpoint takes a moment, as a model's does: a kill lands in the middle of a shard.
  fake = await startFakeOpenAI(() => '', { embeddingDelayMs: 150 });
  cfg = readConfig(env());
  await runIngest(db, readConfig({ ASSAY_ENRICHMENT: 'off' }), [writeCorpusJsonl(dir, 'papers.jsonl', inventedPapers(PAPERS, 'shards'))], { trigger: 'cli' });
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await fake?.close();
  await db?.close();
});

describe.skipIf(!onPostgres)('embedding shards across two worker processes', () => {
  it('are each done once by whichever process takes them, and a killed process’s shard is taken over', { timeout: 180_000 }, async () => {
    const a = startWorker();
    const b = startWorker();
    await expect.poll(() => readyJobWorkers(dir), { timeout: 60_000 }).toBe(2);

    const paragraphs = (await loadRetrievalCorpus(db)).paragraphs;
    // This process follows the shards without a job worker of its own: the two workers do all of them.
    const model = (await createLentEmbedders(db, cfg)).passages!;
    const before = fake.embedded.length;
    const covered: string[] = [];
    const pass = embedInShards(db, paragraphs, model, { perShard: PER_SHARD, pollMs: 50, onCovered: (ids) => void covered.push(...ids) });

    // Once both have done some, the owner of a running shard is killed without warning.
    await expect
      .poll(async () => new Set((await db.prisma.job.findMany({ where: { kind: 'embedding-shard', state: 'done' } })).map((j) => pidOf(j.owner))).size, {
        timeout: 60_000,
        interval: 20,
      })
      .toBe(2);
    const running = await db.prisma.job.findFirst({ where: { kind: 'embedding-shard', state: 'running' } });
    expect(running).not.toBeNull();
    const victim = [a, b].find((c) => c.pid === pidOf(running!.owner))!;
    victim.kill('SIGKILL');

    const end = await pass;
    expect(end.papers).toEqual({ done: PAPERS, total: PAPERS });
    expect(new Set(covered).size).toBe(PAPERS);
    const shards = await db.prisma.job.findMany({ where: { kind: 'embedding-shard' } });
    expect(shards).toHaveLength((2 * PAPERS) / PER_SHARD);
    expect(shards.every((j) => j.state === 'done')).toBe(true);
    // The killed shard was finished by the other process on its second attempt; every other shard ran once.
    const taken = shards.find((j) => j.id === running!.id)!;
    expect(taken.attempts).toBe(2);
    expect(pidOf(taken.owner)).not.toBe(victim.pid);
    expect(shards.filter((j) => j.id !== running!.id).every((j) => j.attempts === 1)).toBe(true);

    // Every paragraph embedded; twice only for the batch the killed process had in flight (at most one shard's).
    const asked = fake.embedded.slice(before).filter((t) => t !== 'dimension probe');
    const texts = new Set(paragraphs.map((p) => p.text));
    expect(new Set(asked)).toEqual(texts);
    expect(asked.length - texts.size).toBeLessThanOrEqual(PER_SHARD);
  });
});
