import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceHash } from '../common/source-hash.ts';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { buildGraph } from '../graph/build.ts';
import { canonicalizeWithConfiguredEmbedder } from '../graph/canonicalize.ts';
import { buildGraphInShards, graphShardJob } from '../graph/shards.ts';
import { runStructuring } from '../structure/pipeline.ts';
import { structureInShards, structureShardJob } from '../structurers/shards.ts';
import { enrichmentDigest, openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';
import {
  corpusPapers,
  inventedPapers,
  inventedRecipes,
  recipeRows,
  tempDir,
  writeCorpusJsonl,
  writeRecordsJsonl,
} from '../../scripts/test-support/fixtures.ts';
import { readyJobWorkers, spawnJobWorker } from '../../scripts/test-support/job-workers.ts';
import { corpusPages, corpusVersion, paperDois } from '../db/retrieval-corpus.ts';
import { lazyRecordIndex, paperByDoiOf } from '../retrieval/record-index.ts';
import { buildRecordIndexInShards, recordShardJob } from '../serving/record-shards.ts';
import { structuredTerms } from '../structure/terms.ts';
import { runIngest } from './import-job.ts';

/**
 * The structuring and graph stages as shards (issue 66): cut into many small paper ranges, they store exactly what
 * the stage run whole over the corpus stores (paragraph annotations, paper records, entities, labels, merges and
 * tuples). On PostgreSQL a worker process beside the coordinator takes some of the shards, and the result is the same.
 */
const onPostgres = testDatabaseKind() === 'postgres';
const cfg = readConfig({ ASSAY_ENRICHMENT: 'off', ASSAY_JOB_STALE_SECONDS: '2', ASSAY_JOB_POLL_SECONDS: '0.1' });
const dir = tempDir('assay-stage-shards-');
const inputs = [
  writeCorpusJsonl(dir, 'papers.jsonl', [...corpusPapers, ...inventedPapers(30, 'stage')]),
  writeRecordsJsonl(dir, 'sol-gel.jsonl', recipeRows),
  // Records enough for the records index's parts.
  writeRecordsJsonl(dir, 'recipes.jsonl', inventedRecipes()),
];
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

describe('the records index as shards', () => {
  const questions = [
    'Which paper synthesizes LiMn2O4 by a sol-gel route from Li2CO3 and MnO2?',
    'sol-gel synthesis calcined at 800 °C',
    'Which records report a cathode made from nitrates in water?',
  ];
  it('is written as parts merged into one file that ranks as the index built whole, a worker writing some on PostgreSQL', { timeout: 180_000 }, async () => {
    const data = tempDir('assay-record-shards-');
    const local = readConfig({ ASSAY_ENRICHMENT: 'off', ASSAY_JOB_STALE_SECONDS: '2', ASSAY_JOB_POLL_SECONDS: '0.1', ASSAY_DATA_DIR: data });
    if (onPostgres) {
      // The earlier test's worker keeps another data folder: what it wrote would be written here again (see below).
      for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
      const probe = tempDir('assay-record-worker-');
      children.push(spawnJobWorker({ ASSAY_ENRICHMENT: 'off', DATABASE_URL: sharded.url, PROBE_DIR: probe, ASSAY_DATA_DIR: data }));
      await expect.poll(() => readyJobWorkers(probe), { timeout: 60_000 }).toBe(1);
    }
    const count = await sharded.prisma.record.count();
    expect(count).toBeGreaterThanOrEqual(4);
    const perShard = Math.max(1, Math.floor(count / 4));
    const lines: string[] = [];
    const stage = await buildRecordIndexInShards(sharded, local, { runId: 'test', perShard, onProgress: (l) => void lines.push(l) });
    expect(stage).toMatchObject({ parts: Math.ceil(count / perShard), failed: [], interrupted: false, records: count });
    expect(stage.parts).toBeGreaterThanOrEqual(4);
    expect(lines.at(-1)).toMatch(new RegExp(`^writing the records index: ${stage.parts} of ${stage.parts} parts done`));
    if (onPostgres) expect(stage.elsewhere).toBeGreaterThan(0);
    const indexFiles = () => fs.readdirSync(path.join(data, 'index')).sort();
    // The parts merged into one file, and gone.
    expect(indexFiles()).toHaveLength(1);
    expect(indexFiles()[0]).toMatch(/^records-[0-9a-f]+\.bin$/);
    expect(stage.mergeSeconds).toBeGreaterThan(0);

    // What a server opens, against the index built whole from the same rows.
    const paperByDoi = paperByDoiOf(await paperDois(sharded));
    const base = path.join(data, 'index', indexFiles()[0]);
    const sameAsWhole = async () => {
      let pages = 0;
      const loadRecords = (after: string | null) => {
        pages++;
        return corpusPages(sharded).loadRecords(after);
      };
      const kept = await lazyRecordIndex(count, loadRecords, paperByDoi).keptIn(base).get();
      expect(pages).toBe(0);
      const whole = await lazyRecordIndex(count, corpusPages(sharded).loadRecords, paperByDoi).get();
      let found = 0;
      for (const q of questions) {
        const expected = whole.lexical.query(structuredTerms(q));
        found += expected.length;
        expect(kept.lexical.query(structuredTerms(q))).toEqual(expected);
      }
      expect(found).toBeGreaterThan(0);
      for (const r of await sharded.prisma.record.findMany({ select: { id: true } })) expect(kept.records.get(r.id)).toEqual(whole.records.get(r.id));
    };
    await sameAsWhole();

    // Asked again for the same corpus, nothing is written.
    expect((await buildRecordIndexInShards(sharded, local, { runId: 'again', perShard })).skipped).toMatch(/kept already/);
    // A worker given another data folder writes its parts there, where the coordinator cannot see them: it writes
    // those again itself, and the index is whole here.
    fs.rmSync(base);
    const other = tempDir('assay-record-other-');
    if (onPostgres) {
      for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
      const probe = tempDir('assay-record-worker-');
      children.push(spawnJobWorker({ ASSAY_ENRICHMENT: 'off', DATABASE_URL: sharded.url, PROBE_DIR: probe, ASSAY_DATA_DIR: other }));
      await expect.poll(() => readyJobWorkers(probe), { timeout: 60_000 }).toBe(1);
    }
    const mended = await buildRecordIndexInShards(sharded, local, { runId: 'mend', perShard });
    expect(mended.failed).toEqual([]);
    if (onPostgres) expect(fs.readdirSync(path.join(other, 'index')).length).toBeGreaterThan(0);
    expect(indexFiles()).toEqual([path.basename(base)]);
    await sameAsWhole();
    // A shard taken up again once the index is merged (from a process thought dead) writes no part beside it.
    const key = path
      .basename(base)
      .replace(/^records-/, '')
      .replace(/\.bin$/, '');
    const reports: unknown[] = [];
    const late = { db: sharded, cfg: local, id: 'late', attempt: 2, signal: new AbortController().signal, report: (r: unknown) => void reports.push(r) };
    await recordShardJob.run(late, { key, version: await corpusVersion(sharded), code: sourceHash()!, part: 1, of: 2, after: null, upTo: null });
    expect(reports).toEqual([{ records: 0, seconds: 0, skipped: 'the part was written already' }]);
    expect(indexFiles()).toEqual([path.basename(base)]);
  });

  it('is refused by a worker running other code, and a shard of a corpus changed since writes nothing', async () => {
    const data = tempDir('assay-record-refused-');
    const local = readConfig({ ASSAY_DATA_DIR: data });
    const ctx = { db: sharded, cfg: local, id: 'x', attempt: 1, signal: new AbortController().signal, report: () => {} };
    const shard = { key: 'k', version: 'v', part: 1, of: 1, after: null, upTo: null };
    await expect(recordShardJob.run(ctx, { ...shard, code: 'other' })).rejects.toThrow(/runs other code .*: run the same commit on every worker/);
    const reports: unknown[] = [];
    await recordShardJob.run({ ...ctx, report: (r) => void reports.push(r) }, { ...shard, code: sourceHash()! });
    expect(reports).toEqual([{ records: 0, seconds: 0, skipped: 'the corpus changed after the shard was queued' }]);
    expect(fs.existsSync(path.join(data, 'index'))).toBe(false);
  });
});
