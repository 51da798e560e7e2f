import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AssayConfig, readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { loadRetrievalCorpus } from '../db/retrieval-corpus.ts';
import { runIngest } from '../jobs/import-job.ts';
import { startJobWorker, stopAllBackgroundWork } from '../queue/queue.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../scripts/test-support/fake-openai.ts';
import { inventedPapers, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';
import { createLentEmbedders } from './select.ts';
import { embeddingShardJob, embedInShards, type ShardCoverage } from './shards.ts';

/**
 * A shard stores its vectors batch by batch, so the papers it has finished land while it runs: dense search and the
 * coverage every trace shows grow within a shard, not only when it ends (a shard of the shared corpus is minutes of
 * the model on two cores). The model is an OpenAI-compatible endpoint served locally that takes a moment per batch.
 */
const PAPERS = 200;
let db: Database;
let fake: FakeOpenAI;
let cfg: AssayConfig;

beforeAll(async () => {
  db = await openTestDatabase();
  fake = await startFakeOpenAI(() => '', { embeddingDelayMs: 300 });
  cfg = readConfig({ ASSAY_LLM_BASE_URL: fake.base, ASSAY_EMBEDDING_MODEL: 'fake-embedder', ASSAY_JOB_POLL_SECONDS: '0.05', ASSAY_ENRICHMENT: 'off' });
  const dir = tempDir('assay-shard-progress-');
  await runIngest(db, readConfig({ ASSAY_ENRICHMENT: 'off' }), [writeCorpusJsonl(dir, 'papers.jsonl', inventedPapers(PAPERS, 'progress'))], { trigger: 'cli' });
  await startJobWorker(db, cfg, [embeddingShardJob]);
}, 120_000);

afterAll(async () => {
  stopAllBackgroundWork();
  await fake?.close();
  await db?.close();
});

describe('a running embedding shard', () => {
  it('lands the papers it has finished before it ends, and the coverage says so', { timeout: 60_000 }, async () => {
    const paragraphs = (await loadRetrievalCorpus(db)).paragraphs;
    const model = (await createLentEmbedders(db, cfg)).passages!;
    // While the one shard runs: how many papers had landed, as the coverage said.
    const whileRunning: number[] = [];
    const landed: string[] = [];
    const end = await embedInShards(db, paragraphs, model, {
      perShard: 10 * paragraphs.length,
      pollMs: 20,
      onCovered: async (ids) => {
        landed.push(...ids);
        const shard = await db.prisma.job.findFirst({ where: { kind: 'embedding-shard' } });
        if (shard?.state === 'running') whileRunning.push(landed.length);
      },
      onProgress: (c: ShardCoverage) => {
        expect(c.papers.done).toBeLessThanOrEqual(PAPERS);
      },
    });
    expect(await db.prisma.job.count({ where: { kind: 'embedding-shard' } })).toBe(1);
    expect(whileRunning.length).toBeGreaterThan(0);
    expect(Math.max(...whileRunning)).toBeLessThan(PAPERS);
    // Every paper lands once, and the end covers them all.
    expect(new Set(landed).size).toBe(PAPERS);
    expect(landed).toHaveLength(PAPERS);
    expect(end.papers).toEqual({ done: PAPERS, total: PAPERS });
  });
});
