import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliOptions } from '../../lib/cli/options.ts';
import { sharedDataDir } from '../../lib/common/shared-data.ts';
import { readConfig } from '../../lib/config.ts';
import { enrichmentDigest } from '../../lib/db/digest.ts';
import { clearGraph } from '../../lib/db/graph.ts';
import { applyPendingMigrations } from '../../lib/db/migrations.ts';
import { openScratchPostgres } from '../../lib/db/scratch-postgres.ts';
import { clearStructuring } from '../../lib/db/structure.ts';
import { buildGraph } from '../../lib/graph/build.ts';
import { canonicalizeWithConfiguredEmbedder } from '../../lib/graph/canonicalize.ts';
import { buildGraphInShards } from '../../lib/graph/shards.ts';
import { runIngest } from '../../lib/jobs/import-job.ts';
import { runStructuring } from '../../lib/structure/pipeline.ts';
import { structureInShards } from '../../lib/structurers/shards.ts';
import type { Database } from '../../lib/db/database.ts';
import type { AssayConfig } from '../../lib/config.ts';
import { corpusPages, corpusVersion, paperDois } from '../../lib/db/retrieval-corpus.ts';
import { recordsKey } from '../../lib/retrieval/index-snapshot.ts';
import { lazyRecordIndex, paperByDoiOf } from '../../lib/retrieval/record-index.ts';
import { fileOf } from '../../lib/retrieval/snapshot-files.ts';
import { snapshotDirOf } from '../../lib/serving/prestart.ts';
import { buildRecordIndexInShards } from '../../lib/serving/record-shards.ts';
import { structuredTerms } from '../../lib/structure/terms.ts';
import { writeScaled } from './scale.ts';
import { startWorkers, stopWorkers } from './workers.ts';

export const stagesUsage =
  'npm run bench -- stages --postgres <admin url> [--factor 1] [--workers 0,1,2] [--per-shard 5000] [--stages structure,graph,records] [--json out.json]';

/**
 * `npm run bench -- stages`: the structuring and graph stages as shards (lib/structurers/shards.ts,
 * lib/graph/shards.ts) with 0, 1, 2 `npm run worker` processes beside the coordinator, on a throw-away PostgreSQL
 * database holding `--factor` copies of the shared corpus (as bench scale writes them), after a first run of the
 * stages whole, without shards (the baseline). Before each run the stages' output is cleared and both run from
 * nothing: seconds per stage, shards, how many other processes did, and whether what they stored is what the
 * baseline stored (the enrichment digest). Then the records index (lib/serving/record-shards.ts) the same way: built
 * whole in this process, then as parts with 0, 1, 2 workers, merged, and the merged file compared with the whole one
 * (the ranked lists of the records' titles and of the natural dev questions, and the records).
 * `--stages records` runs only that.
 */
export async function benchStages(args: string[]) {
  const opt = cliOptions(args, ['postgres', 'factor', 'workers', 'per-shard', 'stages', 'json'] as const);
  const stages = new Set((opt('stages') ?? 'structure,graph,records').split(','));
  const admin = opt('postgres');
  if (!admin) throw new Error(`bench stages needs a PostgreSQL server (several processes share one database): ${stagesUsage}`);
  const shared = sharedDataDir();
  if (!shared) throw new Error('bench stages reads the shared corpus from ../shared/data (or ASSAY_SHARED_DATA), which is absent');
  const factor = Number(opt('factor') ?? 1);
  const counts = (opt('workers') ?? '0,1,2').split(',').map(Number);
  const perShard = opt('per-shard') ? Number(opt('per-shard')) : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-bench-stages-'));
  const db = await openScratchPostgres(admin);
  const runs: {
    /** false: the baseline, the stages run whole without shards. */
    sharded: boolean;
    workers: number;
    structureSeconds: number;
    graphSeconds: number;
    shards: number;
    byOthers: number;
    sameAsFirst: boolean;
    differences: string[];
  }[] = [];
  const recordRuns: RecordRun[] = [];
  try {
    await applyPendingMigrations(db);
    fs.mkdirSync(path.join(dir, 'records'));
    await writeScaled(path.join(shared, 'corpus', 'papers.jsonl.gz'), path.join(dir, 'papers.jsonl.gz'), factor);
    for (const f of fs.readdirSync(path.join(shared, 'records')).filter((f) => f.endsWith('.jsonl.gz')))
      await writeScaled(path.join(shared, 'records', f), path.join(dir, 'records', f), factor);
    const data = path.join(dir, 'data');
    const env = {
      ...process.env,
      DATABASE_URL: db.url,
      ASSAY_DATA_DIR: data,
      ASSAY_ENRICHMENT: 'off',
      ASSAY_LOCAL_EMBEDDER: 'ngram',
      ASSAY_JOB_POLL_SECONDS: '0.2',
    };
    const cfg = readConfig(env);
    const t0 = performance.now();
    const imported = await runIngest(db, cfg, [dir], { trigger: 'cli', structure: false });
    console.log(
      `×${factor}: ${imported.papers} papers, ${imported.paragraphs} paragraphs imported in ${((performance.now() - t0) / 1000).toFixed(0)} s (stages off)`,
    );
    let first: Digest | null = null;
    // -1: the stages run whole in this process, without shards (npm run structure and graph:build do so): the baseline.
    for (const n of stages.has('structure') || stages.has('graph') ? [-1, ...counts] : []) {
      await clearStructuring(db);
      await clearGraph(db);
      await db.prisma.job.deleteMany({ where: { kind: { in: ['structure-shard', 'graph-shard'] } } });
      const children = await startWorkers(Math.max(0, n), env);
      try {
        const runId = `bench-${n}`;
        const s0 = performance.now();
        const structured = n < 0 ? { ...(await runStructuring(db)), shards: 0, elsewhere: 0 } : await structureInShards(db, cfg, { runId, perShard });
        const s1 = performance.now();
        const graph = n < 0 ? { ...(await buildGraph(db)), shards: 0, elsewhere: 0 } : await buildGraphInShards(db, cfg, { runId, perShard });
        await canonicalizeWithConfiguredEmbedder(db, cfg);
        const s2 = performance.now();
        const digest = await enrichmentDigest(db);
        first ??= digest;
        const differ = differences(first, digest);
        const run = {
          sharded: n >= 0,
          workers: Math.max(0, n),
          structureSeconds: Math.round((s1 - s0) / 100) / 10,
          graphSeconds: Math.round((s2 - s1) / 100) / 10,
          shards: structured.shards + graph.shards,
          byOthers: structured.elsewhere + graph.elsewhere,
          sameAsFirst: differ.length === 0,
          differences: differ,
        };
        runs.push(run);
        console.log(
          `${n < 0 ? 'whole stages, no shards' : `${n} npm run worker beside the import`}: structuring ${run.structureSeconds} s, graph ${run.graphSeconds} s (canonicalisation included); ${run.shards} shards, ${run.byOthers} by the workers; stored the same as the whole stages: ${run.sameAsFirst ? 'yes' : `NO (${differ.join(', ')})`}`,
        );
      } finally {
        await stopWorkers(children);
      }
    }
    if (stages.has('records')) recordRuns.push(...(await recordStageRuns(db, cfg, counts, env)));
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const out = { factor, cores: os.availableParallelism(), runs, records: recordRuns };
  console.log(JSON.stringify(out));
  if (opt('json')) fs.writeFileSync(opt('json')!, `${JSON.stringify(out, null, 2)}\n`);
  process.exit(0);
}

type Digest = Awaited<ReturnType<typeof enrichmentDigest>>;

/** Per part of the digest, how many of its rows differ between two runs (none: the runs stored the same). */
function differences(a: Digest, b: Digest): string[] {
  const out: string[] = [];
  for (const part of ['paragraphs', 'records', 'entities', 'tuples'] as const) {
    const x = a[part].map((r) => JSON.stringify(r));
    const y = new Set(b[part].map((r) => JSON.stringify(r)));
    const n = x.filter((r) => !y.has(r)).length + Math.max(0, y.size - x.length);
    if (n)
      out.push(
        `${part}: ${n} of ${x.length} rows, e.g. ${x
          .filter((r) => !y.has(r))
          .slice(0, 2)
          .join(' ')}`,
      );
  }
  return out;
}

interface RecordRun {
  /** false: the baseline, the index built whole in this process. */
  sharded: boolean;
  workers: number;
  seconds: number;
  /** Of `seconds`, the merge of the parts into one file. */
  mergeSeconds?: number;
  parts: number;
  byOthers: number;
  /** The same ranked lists as the whole index for every query, and the same records. */
  sameAsWhole: boolean;
  queries: number;
}

/** The records stage whole, then as parts with each count of workers, every set of parts checked against the whole. */
async function recordStageRuns(db: Database, cfg: AssayConfig, counts: number[], env: NodeJS.ProcessEnv): Promise<RecordRun[]> {
  const base = fileOf(snapshotDirOf(cfg), 'records', recordsKey(await corpusVersion(db))!);
  const count = await db.prisma.record.count();
  const paperByDoi = paperByDoiOf(await paperDois(db));
  const t0 = performance.now();
  const whole = await lazyRecordIndex(count, corpusPages(db).loadRecords, paperByDoi).get();
  const runs: RecordRun[] = [
    { sharded: false, workers: 0, seconds: Math.round((performance.now() - t0) / 100) / 10, parts: 1, byOthers: 0, sameAsWhole: true, queries: 0 },
  ];
  console.log(`records index, whole in this process: ${runs[0].seconds} s (${count} records)`);
  const titles = (await db.prisma.record.findMany({ select: { title: true }, where: { title: { not: null } }, orderBy: { id: 'asc' }, take: 200 })).map(
    (r) => r.title!,
  );
  const dev = fs
    .readFileSync(path.join(import.meta.dirname, '../../eval/questions/natural.dev.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { question: string }).question);
  const queries = [...titles, ...dev].map((q) => structuredTerms(q));
  const sample = await db.prisma.record.findMany({ select: { id: true }, orderBy: { id: 'asc' }, take: 500 });
  for (const n of counts) {
    fs.rmSync(path.dirname(base), { recursive: true, force: true });
    await db.prisma.job.deleteMany({ where: { kind: 'records-shard' } });
    const children = await startWorkers(n, env);
    try {
      const s0 = performance.now();
      const stage = await buildRecordIndexInShards(db, cfg, { runId: `bench-${n}` });
      const seconds = Math.round((performance.now() - s0) / 100) / 10;
      const parts = await lazyRecordIndex(count, corpusPages(db).loadRecords, paperByDoi).keptIn(base).get();
      // The stage merges its parts into one file (record-merge.ts): what a server opens.
      const same =
        parts.parts === 1 &&
        queries.every((q) => JSON.stringify(parts.lexical.query(q)) === JSON.stringify(whole.lexical.query(q))) &&
        sample.every((r) => JSON.stringify(parts.records.get(r.id)) === JSON.stringify(whole.records.get(r.id)));
      const run = {
        sharded: true,
        workers: n,
        seconds,
        mergeSeconds: Math.round((stage.mergeSeconds ?? 0) * 10) / 10,
        parts: stage.parts,
        byOthers: stage.elsewhere,
        sameAsWhole: same,
        queries: queries.length,
      };
      runs.push(run);
      console.log(
        `records index, ${n} npm run worker beside the import: ${seconds} s (the merge ${run.mergeSeconds} s); ${run.parts} parts, ${run.byOthers} by the workers; the merged file ranks as the whole index (${queries.length} queries, ${sample.length} records): ${same ? 'yes' : 'NO'}`,
      );
    } finally {
      await stopWorkers(children);
    }
  }
  return runs;
}
