import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { loadRetrievalCorpus } from '../db/retrieval-corpus.ts';
import { type EmbeddingShardsFixture, startEmbeddingShards } from '../../scripts/test-support/embedding-shards.ts';
import { createLentEmbedders } from './select.ts';
import { embedInShards, type ShardCoverage } from './shards.ts';

/**
 * A shard stores its vectors batch by batch, so the papers it has finished land while it runs: dense search and the
 * coverage every trace shows grow within a shard, not only when it ends (a shard of the shared corpus is minutes of
 * the model on two cores). The model is an OpenAI-compatible endpoint served locally that takes a moment per batch.
 */
const PAPERS = 200;
let fixture: EmbeddingShardsFixture;
let db: Database;

beforeAll(async () => {
  fixture = await startEmbeddingShards({ papers: PAPERS, prefix: 'progress', embeddingDelayMs: 300 });
  db = fixture.db;
}, 120_000);

afterAll(async () => {
  await fixture?.close();
});

describe('a running embedding shard', () => {
  it('lands the papers it has finished before it ends, and the coverage says so', async () => {
    const paragraphs = (await loadRetrievalCorpus(db)).paragraphs;
    const model = (await createLentEmbedders(db, fixture.cfg)).passages!;
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
    // Papers landed while the shard ran, before all had: the first count seen while running is short of all. (The
    // last batch may land before the shard's row says it is done, so the last count seen while running can be all.)
    expect(Math.min(...whileRunning)).toBeLessThan(PAPERS);
    // Every paper lands once, and the end covers them all.
    expect(new Set(landed).size).toBe(PAPERS);
    expect(landed).toHaveLength(PAPERS);
    expect(end.papers).toEqual({ done: PAPERS, total: PAPERS });
  });
});
