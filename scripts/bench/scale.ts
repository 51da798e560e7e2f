import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { readConfig } from '../../lib/config.ts';
import { openMigratedDatabase } from '../../lib/db/client.ts';
import { runIngest } from '../../lib/jobs/import-job.ts';
import { indexSnapshot, loadSnapshot, restoreIndex, saveSnapshot } from '../../lib/retrieval/index-snapshot.ts';
import type { RetrievalIndex } from '../../lib/retrieval/index.ts';
import { sharedDataDir } from '../../lib/common/shared-data.ts';
import { cliOptions } from '../../lib/cli/options.ts';
import { serverStarts, seriesQuestions, startLine, type StartFigures } from './restart.ts';

export const scaleUsage =
  'npm run bench -- scale [--factor 10] [--factors 1,10] [--embedders model,ngram] [--pipelines a,b] [--questions <jsonl>] [--keep] [--json out.json]';

/**
 * `bench scale`: how Assay's costs grow with the literature. For each factor it writes a corpus of `factor` copies
 * of the shared one (the first as it is; in every other copy identifiers are made new and every free-standing
 * number in texts and records is scaled by 1 + 0.013·copy, so no copy is a duplicate the import could skip), imports
 * it into a fresh embedded database (import → structuring → graph), then runs `bench retrieval` on it in a process
 * of its own per embedder (index build, per-pipeline p50/p95 on unseen questions, the stored index's write and read,
 * peak RSS of that process, which holds what the server holds), and prints a growth table and JSON.
 *
 * The embedders: the n-gram stand-in first (its index is what the app answers from as soon as the import ends: lexical
 * search, and dense search on the stand-in), then the default model (`--embedders model,ngram`, the default), whose
 * build embeds every passage first: the time until dense search is complete. Each row's `summary` says both.
 */
type Row = {
  factor: number;
  papers: number;
  paragraphs: number;
  records: number;
  ingestSeconds: number;
  importSeconds: number;
  structureSeconds: number;
  graphSeconds: number;
  /** The import's records stage: the records index written as shards into the data folder. */
  recordsStageSeconds: number;
  indexSeconds: number;
  graphIndexSeconds: number | null;
  recordsIndexSeconds: number | null;
  storedIndex: { writeSeconds: number; readSeconds: number; megabytes: number } | null;
  latencyMs: Record<string, { p50: number; p95: number; max: number }>;
  peakRssMb: number;
  /** The app's server on the scaled data folder: its first start (which builds and keeps the index), then a restart. */
  server: { first: StartFigures; restart: StartFigures } | null;
  /** The default model's run on the same data folder: its build embeds every passage (none are cached yet). */
  model: { id: string; indexSeconds: number; latencyMs: Record<string, { p50: number; p95: number; max: number }>; peakRssMb: number } | null;
  summary: ScaleSummary;
};

/** Per factor, what the issue of scale asks first (the JSON's `summary`). */
export interface ScaleSummary {
  /**
   * From the import's start until lexical search answers (import to graph, then the index on the n-gram stand-in; the
   * records stage follows it).
   */
  lexicalSearchableSeconds: number;
  /** From the import's start until dense search runs on the model for every passage (null: the model was not run). */
  denseCompleteSeconds: number | null;
  /** p95 per pipeline, on the model's index when it ran, else the stand-in's. */
  p95Ms: Record<string, number>;
  /** Peak RSS of the app's server after a restart (null: no production build to start). */
  restartRssMb: number | null;
}

/** Scales every free-standing number (not a formula's subscript, not part of an identifier) by `f`, keeping its decimals. */
export function perturbNumbers(text: string, f: number): string {
  if (f === 1) return text;
  return text.replace(/(?<![\p{L}\d.\-/_])(\d+(?:\.(\d+))?)(?!\.?[\p{L}\d_/])/gu, (whole, num: string, decimals: string | undefined) => {
    const v = Number(num) * f;
    return Number.isFinite(v) ? v.toFixed(decimals ? decimals.length : 0) : whole;
  });
}

/** One item (paper or record) as copy number `copy` of the scaled corpus (0: as it is). */
export function copyValue(value: unknown, copy: number, f: number, key = ''): unknown {
  if (copy === 0) return value;
  if (typeof value === 'number') return key === 'year' ? value : Math.round(value * f * 1000) / 1000;
  if (typeof value === 'string') {
    if (key === 'doi') return `${value}.s${copy}`;
    if (/^(id|source_id|paper_id)$/.test(key)) return `${value}~s${copy}`;
    return perturbNumbers(value, f);
  }
  if (Array.isArray(value)) return value.map((v) => copyValue(v, copy, f, key === 'paragraphs' ? '' : key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyValue(v, copy, f, k)]));
  return value;
}

export async function writeScaled(from: string, to: string, factor: number): Promise<number> {
  const out = zlib.createGzip({ level: 1 });
  const sink = fs.createWriteStream(to);
  out.pipe(sink);
  let n = 0;
  for (let copy = 0; copy < factor; copy++) {
    const f = 1 + 0.013 * copy;
    const lines = readline.createInterface({ input: fs.createReadStream(from).pipe(zlib.createGunzip()), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      if (!line.trim()) continue;
      if (!out.write(`${JSON.stringify(copyValue(JSON.parse(line), copy, f))}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
      n++;
    }
  }
  out.end();
  await new Promise<void>((r) => sink.on('finish', () => r()));
  return n;
}

async function measure(factor: number, shared: string, work: string, opts: { pipelines: string; questions: string; model: boolean }): Promise<Row> {
  const dir = path.join(work, `x${factor}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const input = path.join(dir, 'input');
  fs.mkdirSync(path.join(input, 'records'), { recursive: true });
  const t0 = performance.now();
  let items = await writeScaled(path.join(shared, 'corpus', 'papers.jsonl.gz'), path.join(input, 'papers.jsonl.gz'), factor);
  for (const f of fs.readdirSync(path.join(shared, 'records')).filter((f) => f.endsWith('.jsonl.gz')))
    items += await writeScaled(path.join(shared, 'records', f), path.join(input, 'records', f), factor);
  console.log(`×${factor}: wrote ${items} papers and records in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  const dataDir = path.join(dir, 'data');
  const env = { ...process.env, ASSAY_DATA_DIR: dataDir, ASSAY_LOCAL_EMBEDDER: 'ngram', DATABASE_URL: '' };
  const cfg = readConfig(env);
  const db = await openMigratedDatabase(cfg);
  let report: Awaited<ReturnType<typeof runIngest>>;
  try {
    report = await runIngest(db, cfg, [input], { trigger: 'cli', recordsIndex: true });
  } finally {
    await db.close();
  }
  if (report.status !== 'succeeded') throw new Error(`the ×${factor} import ${report.status}`);
  console.log(
    `×${factor}: imported in ${report.seconds.toFixed(0)} s (import ${report.ingestSeconds.toFixed(0)} s, structuring ${report.structureSeconds.toFixed(0)} s, graph ${report.graphSeconds.toFixed(0)} s, records index ${report.recordsSeconds.toFixed(0)} s): ${report.papers} papers, ${report.paragraphs} paragraphs, ${report.records} records`,
  );

  // The retrieval measurements in a process of their own: its peak RSS is what a server holds for this corpus.
  const retrieval = (embedder: 'ngram' | 'model') => {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'bench.ts'), 'retrieval', '--questions', opts.questions, '--pipelines', opts.pipelines, '--stored'],
      { env: { ...env, ASSAY_LOCAL_EMBEDDER: embedder }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 },
    );
    process.stdout.write(`${child.stdout.trimEnd().replace(/^/gm, `  ×${factor} ${embedder} | `)}\n`);
    const last = child.stdout.trim().split('\n').pop() ?? '';
    if (child.status !== 0 || !last.startsWith('{')) throw new Error(`bench retrieval (${embedder}) failed on ×${factor} (exit ${child.status})`);
    return JSON.parse(last);
  };
  const r = retrieval('ngram');
  // The model's build embeds every passage (a fresh database caches none): its index time is the embedding's.
  const m = opts.model ? retrieval('model') : null;
  const modelRow: Row['model'] = m ? { id: m.embedderId ?? 'model', indexSeconds: m.indexSeconds, latencyMs: m.latencyMs, peakRssMb: m.peakRssMb } : null;
  // What the app's own server holds and how soon it answers on this data folder (it needs a production build).
  let server: Row['server'] = null;
  if (fs.existsSync(path.join(process.cwd(), '.next', 'BUILD_ID'))) {
    try {
      server = await serverStarts(dataDir, {
        question: 'Which paper reports the area-specific resistance of an LSCF cathode at 600 °C?',
        pipeline: 'hybrid',
        questions: await seriesQuestions(opts.questions),
        // The model when it ran (its vectors are in the database by now), else the stand-in.
        env: { ASSAY_LOCAL_EMBEDDER: opts.model ? 'model' : 'ngram', DATABASE_URL: '' },
      });
      console.log(`  ×${factor} | ${startLine('server, first start', 'hybrid', server.first)}`);
      console.log(`  ×${factor} | ${startLine('server, restart', 'hybrid', server.restart)}`);
    } catch (error) {
      // The corpus's own figures stand without the server's.
      console.log(`  ×${factor} | the app's server could not be measured: ${(error as Error).message}`);
    }
  } else console.log(`  ×${factor} | the app's server is not measured: no production build (npm run build)`);
  return {
    factor,
    papers: report.papers,
    paragraphs: report.paragraphs,
    records: report.records,
    ingestSeconds: report.seconds,
    importSeconds: report.ingestSeconds,
    structureSeconds: report.structureSeconds,
    graphSeconds: report.graphSeconds,
    recordsStageSeconds: report.recordsSeconds,
    indexSeconds: r.indexSeconds,
    graphIndexSeconds: r.graphIndexSeconds,
    recordsIndexSeconds: r.recordsIndexSeconds,
    storedIndex: r.storedIndex ?? null,
    latencyMs: r.latencyMs,
    peakRssMb: r.peakRssMb,
    server,
    model: modelRow,
    summary: {
      // In the app the search index is built before the records stage (lib/jobs/import-job.ts), so lexical search
      // does not wait for it; the model's embedding shares the cores with it, so dense search is counted after it.
      lexicalSearchableSeconds: report.seconds - report.recordsSeconds + r.indexSeconds,
      denseCompleteSeconds: modelRow ? report.seconds + modelRow.indexSeconds : null,
      p95Ms: Object.fromEntries(Object.entries((modelRow ?? r).latencyMs as Row['latencyMs']).map(([p, l]) => [p, l.p95])),
      restartRssMb: server?.restart.peakRssMb ?? null,
    },
  };
}

type Line = (label: string, values: (number | null)[], fmt: (v: number) => string) => string[];

/** The app server's rows of the growth table. */
function serverLines(rows: Row[], line: Line): string[][] {
  if (!rows.some((r) => r.server)) return [];
  const s = (v: number) => `${v.toFixed(1)} s`;
  const mib = (v: number) => `${Math.round(v)} MiB`;
  const of = (pick: (x: NonNullable<Row['server']>) => number | null) => rows.map((r) => (r.server ? pick(r.server) : null));
  const figures: [string, (x: NonNullable<Row['server']>) => number | null, (v: number) => string][] = [
    ['server 1st start: answer', (x) => x.first.firstAnswerSeconds, s],
    ['server 1st start: peak RSS', (x) => x.first.peakRssMb, mib],
    ['server restart: answer', (x) => x.restart.firstAnswerSeconds, s],
    ['server restart: RSS warm', (x) => x.restart.warmRssMb, mib],
    ['server restart: 30 q. RSS', (x) => x.restart.questions.rssMb, mib],
    ['server restart: peak RSS', (x) => x.restart.peakRssMb, mib],
    ['server hybrid p95 (HTTP)', (x) => x.restart.questions.p95, (v) => `${v.toFixed(0)} ms`],
    ['server 1st records answer', (x) => x.first.records?.firstSeconds ?? null, s],
    ['server 1st start: records peak', (x) => x.first.records?.peakRssMb ?? null, mib],
    ['server restart: records peak', (x) => x.restart.records?.peakRssMb ?? null, mib],
    ['server records p95 (HTTP)', (x) => x.restart.records?.p95 ?? null, (v) => `${v.toFixed(0)} ms`],
  ];
  return figures.map(([label, pick, fmt]) => line(label, of(pick), fmt));
}

function table(rows: Row[]) {
  const pipelines = Object.keys(rows[0].latencyMs);
  const head = ['', ...rows.map((r) => `×${r.factor}`), ...(rows.length > 1 ? [`×${rows.at(-1)!.factor} / ×${rows[0].factor}`] : [])];
  // A figure a run did not measure (a pipeline skipped for memory) is "–", and has no growth.
  const line = (label: string, values: (number | null)[], fmt: (v: number) => string) => {
    const [first, last] = [values[0], values.at(-1)];
    const growth = rows.length > 1 && first && last !== null && last !== undefined ? [`${(last / first).toFixed(1)}×`] : rows.length > 1 ? ['–'] : [];
    return [label, ...values.map((v) => (v === null ? '–' : fmt(v))), ...growth];
  };
  const s = (v: number) => `${v.toFixed(0)} s`;
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const lines = [
    line(
      'paragraphs',
      rows.map((r) => r.paragraphs),
      String,
    ),
    line(
      'records',
      rows.map((r) => r.records),
      String,
    ),
    line(
      'import → records index',
      rows.map((r) => r.ingestSeconds),
      s,
    ),
    line(
      'records index (stage)',
      rows.map((r) => r.recordsStageSeconds),
      s,
    ),
    line(
      'index build',
      rows.map((r) => r.indexSeconds),
      s,
    ),
    line(
      'ingest to searchable',
      rows.map((r) => r.summary.lexicalSearchableSeconds),
      s,
    ),
    line(
      'graph index',
      rows.map((r) => r.graphIndexSeconds ?? null),
      (v) => `${v.toFixed(1)} s`,
    ),
    line(
      'records index, first use',
      rows.map((r) => r.recordsIndexSeconds ?? null),
      (v) => `${v.toFixed(1)} s`,
    ),
    line(
      'stored index read',
      rows.map((r) => r.storedIndex?.readSeconds ?? null),
      (v) => `${v.toFixed(1)} s`,
    ),
    line(
      'stored index size',
      rows.map((r) => r.storedIndex?.megabytes ?? null),
      (v) => `${v.toFixed(0)} MB`,
    ),
    ...pipelines.flatMap((p) => [
      line(
        `${p} p50`,
        rows.map((r) => r.latencyMs[p]?.p50 ?? null),
        ms,
      ),
      line(
        `${p} p95`,
        rows.map((r) => r.latencyMs[p]?.p95 ?? null),
        ms,
      ),
    ]),
    line(
      'peak RSS (bench: builds all)',
      rows.map((r) => r.peakRssMb),
      (v) => `${v} MB`,
    ),
    ...(rows.some((r) => r.model)
      ? [
          line(
            'model: index build (embeds all)',
            rows.map((r) => r.model?.indexSeconds ?? null),
            s,
          ),
          line(
            'model: paragraphs/s',
            rows.map((r) => (r.model ? r.paragraphs / r.model.indexSeconds : null)),
            (v) => v.toFixed(1),
          ),
          line(
            'lexical search answers',
            rows.map((r) => r.summary.lexicalSearchableSeconds),
            s,
          ),
          line(
            'dense search complete',
            rows.map((r) => r.summary.denseCompleteSeconds),
            s,
          ),
          ...pipelines.map((p) =>
            line(
              `model: ${p} p95`,
              rows.map((r) => r.model?.latencyMs[p]?.p95 ?? null),
              ms,
            ),
          ),
          line(
            'model: peak RSS (bench)',
            rows.map((r) => r.model?.peakRssMb ?? null),
            (v) => `${v} MB`,
          ),
        ]
      : []),
    ...serverLines(rows, line),
  ];
  const all = [head, ...lines];
  const widths = head.map((_, i) => Math.max(...all.map((l) => String(l[i] ?? '').length)));
  for (const l of all) console.log(l.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  '));
}

/**
 * The index written as the server keeps it (lib/retrieval/index-snapshot.ts) and read back: seconds and size, and the
 * index read back, which is what the server's retrieval workers answer from (they read it; they never hold a build).
 */
export function timeStoredIndex(index: RetrievalIndex, lazies: Parameters<typeof restoreIndex>[1]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-stored-index-'));
  try {
    const t0 = performance.now();
    saveSnapshot(dir, indexSnapshot(index, 'bench'));
    const t1 = performance.now();
    const megabytes = fs.readdirSync(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0) / 1048576;
    const stored = loadSnapshot(dir, 'bench', () => {});
    if (!stored) throw new Error('the stored index could not be read back');
    // What a restart does with it: BM25 and the dense matrices made usable again.
    const restored = restoreIndex(stored, lazies, { embedder: index.embedder, nameEmbedder: index.nameEmbedder, buildSeconds: index.buildSeconds });
    const t2 = performance.now();
    const figures = { writeSeconds: (t1 - t0) / 1000, readSeconds: (t2 - t1) / 1000, megabytes: Math.round(megabytes) };
    console.log(`stored index     written in ${figures.writeSeconds.toFixed(1)} s, read back in ${figures.readSeconds.toFixed(1)} s (${figures.megabytes} MB)`);
    return { figures, index: restored };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchScale(args: string[]) {
  const opt = cliOptions(args, ['factor', 'factors', 'embedders', 'pipelines', 'questions', 'json', 'work'], ['keep']);
  const shared = sharedDataDir();
  if (!shared) throw new Error('bench scale builds its corpus from ../shared/data (or ASSAY_SHARED_DATA), which is absent');
  const factor = Number(opt('factor') ?? 10);
  const factors = (opt('factors') ?? `1,${factor}`).split(',').map(Number);
  if (factors.some((f) => !Number.isInteger(f) || f < 1 || f > 50)) throw new Error('factors are whole numbers from 1 to 50');
  const questions = opt('questions') ?? path.join(process.cwd(), 'eval', 'questions', 'natural.dev.jsonl');
  const pipelines = opt('pipelines') ?? 'bm25,vector,json-qr,graph,hybrid,records';
  const embedders = (opt('embedders') ?? 'model,ngram').split(',');
  if (!embedders.includes('ngram') || embedders.some((e) => e !== 'model' && e !== 'ngram'))
    throw new Error('--embedders is model,ngram (the default) or ngram: the n-gram row is what the app answers from first');
  const model = embedders.includes('model');
  const work = opt('work') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'assay-scale-'));
  const rows: Row[] = [];
  try {
    for (const f of [...new Set(factors)].sort((a, b) => a - b)) rows.push(await measure(f, shared, work, { pipelines, questions, model }));
  } finally {
    if (!opt('keep')) fs.rmSync(work, { recursive: true, force: true });
    else console.log(`kept: ${work}`);
  }
  console.log(
    `\ncost growth (${os.cpus().length} cores, embedded PGlite; the n-gram stand-in's rows${model ? ', then the default model' : ''}; latency on ${path.basename(questions)}, the question's embedding included)`,
  );
  table(rows);
  const json = JSON.stringify({ rows });
  if (opt('json')) fs.writeFileSync(opt('json')!, json);
  console.log(json);
}
