import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { buildGraph } from '../graph/build.ts';
import { canonicalizeWithConfiguredEmbedder } from '../graph/canonicalize.ts';
import { buildGraphInShards, graphShardJob } from '../graph/shards.ts';
import { runStructuring } from '../structure/pipeline.ts';
import { structureInShards, structureShardJob } from '../structure/shards.ts';
import { enrichmentDigest, openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';
import { corpusPapers, inventedPapers, recipeRows, tempDir, writeCorpusJsonl, writeRecordsJsonl } from '../../scripts/test-support/fixtures.ts';
import { readyJobWorkers, spawnJobWorker } from '../../scripts/test-support/job-workers.ts';
import { runIngest } from './import-job.ts';

/**
 * The structuring and graph stages as shards (issue 66): cut into many small paper ranges, they store exactly what
 * the stage run whole over the corpus stores (paragraph annotations, paper records, entities, labels, merges and
 * tuples). On PostgreSQL a worker process beside the coordinator takes some of the shards, and the result is the same.
 */
const onPostgres = testDatabaseKind() === 'postgres';
const cfg = readConfig({ ASSAY_ENRICHMENT: 'off', ASSAY_JOB_STALE_SECONDS: '2', ASSAY_JOB_POLL_SECONDS: '0.1' });
const dir = tempDir('assay-stage-shards-');
const inputs = [writeCorpusJsonl(dir, 'papers.jsonl', [...corpusPapers, ...inventedPapers(30, 'stage')]), writeRecordsJsonl(dir, 'sol-gel.jsonl', recipeRows)];
/** Small enough that the corpus makes a dozen shards or more per stage. */
const PER_SHARD = 6;

let whole: Database & { url?: string };
let sharded: Database & { url?: string };
const children: ChildProcess[] = [];

beforeAll(async () => {
  whole = await openTestDatabase();
  sharded = await openTestDatabase();
  // Both read the same files; only the stages after the import differ.
  for (const db of [whole, sharded]) await runIngest(db, cfg, inputs, { trigger: 'cli', structure: false });
  await runStructuring(whole);
  await buildGraph(whole);
  await canonicalizeWithConfiguredEmbedder(whole, cfg);
}, 180_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await whole?.close();
  await sharded?.close();
});

describe('structuring and graph extraction as shards', () => {
  it('store what the stages run whole store, with a worker process taking shards beside the coordinator on PostgreSQL', { timeout: 180_000 }, async () => {
    if (onPostgres) {
      const probe = tempDir('assay-stage-worker-');
      children.push(spawnJobWorker({ ASSAY_ENRICHMENT: 'off', DATABASE_URL: sharded.url, PROBE_DIR: probe }));
      await expect.poll(() => readyJobWorkers(probe), { timeout: 60_000 }).toBe(1);
    }
    const lines: string[] = [];
    const structured = await structureInShards(sharded, cfg, { runId: 'test', perShard: PER_SHARD, onProgress: (l) => void lines.push(l) });
    const graph = await buildGraphInShards(sharded, cfg, { runId: 'test', perShard: PER_SHARD, onProgress: (l) => void lines.push(l) });
    await canonicalizeWithConfiguredEmbedder(sharded, cfg);

    expect(structured.shards).toBeGreaterThanOrEqual(12);
    expect(graph.shards).toBeGreaterThanOrEqual(12);
    expect(structured.failedShards).toEqual([]);
    expect(graph.failures).toEqual([]);
    expect(structured.interrupted || graph.interrupted).toBe(false);
    expect(structured.paragraphsStructured).toBeGreaterThan(30);
    expect(graph.tuplesWritten).toBeGreaterThan(30);
    // The shards cut the corpus: every paragraph and every paper's record was read by one shard, once.
    expect(structured.paragraphsSeen).toBe(await sharded.prisma.paragraph.count());
    expect(graph.papersSeen).toBe(await sharded.prisma.paperRecord.count());
    expect(lines.at(-1)).toMatch(new RegExp(`^extracting knowledge-graph tuples: ${graph.shards} of ${graph.shards} parts done`));
    // Each shard ran once, by one process or the other.
    const jobs = await sharded.prisma.job.findMany({ where: { kind: { in: ['structure-shard', 'graph-shard'] } } });
    expect(jobs).toHaveLength(structured.shards + graph.shards);
    expect(jobs.every((j) => j.state === 'done' && j.attempts === 1)).toBe(true);
    if (onPostgres) {
      expect(structured.elsewhere + graph.elsewhere).toBeGreaterThan(0);
      expect(lines.some((l) => /by other workers/.test(l))).toBe(true);
    } else expect(structured.elsewhere + graph.elsewhere).toBe(0);

    expect(await enrichmentDigest(sharded)).toEqual(await enrichmentDigest(whole));
  });

  it('are refused by a worker that would structure or extract otherwise, with the reason', async () => {
    const ctx = { db: sharded, cfg, id: 'x', attempt: 1, signal: new AbortController().signal, report: () => {} };
    await expect(structureShardJob.run(ctx, { extractorId: 'llm:some-model', papers: [], alsoRebuild: [] })).rejects.toThrow(
      /structures paragraphs with offline@.*the shard is for llm:some-model: give every worker the same ASSAY_EXTRACTOR/,
    );
    await expect(graphShardJob.run(ctx, { extractorId: 'llm-tuples:some-model', papers: [] })).rejects.toThrow(
      /extracts tuples with patterns\+clauses, the shard is for llm-tuples:some-model: give every worker the same ASSAY_GRAPH_EXTRACTOR/,
    );
    // A worker on another commit (other graph rules) refuses too: its tuples would carry another stamp.
    await expect(graphShardJob.run(ctx, { extractorId: 'patterns+clauses', rulesId: 'graph-offline@7-0000000000', papers: [] })).rejects.toThrow(
      /runs the graph rules graph-offline@7-\w+, the shard is for graph-offline@7-0000000000: run the same commit on every worker/,
    );
  });
});
