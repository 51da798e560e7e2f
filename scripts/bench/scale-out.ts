import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { readConfig } from '../../lib/config.ts';
import { openMigratedDatabase } from '../../lib/db/client.ts';
import { runIngest } from '../../lib/jobs/import-job.ts';
import { loadQuestions } from '../../lib/evaluation/questions.ts';
import { percentile } from '../../lib/evaluation/retrieval-metrics.ts';
import { isPipelineName } from '../../lib/pipelines/registry.ts';
import { startNeo4j } from '../../lib/graph/neo4j-server/launch.ts';
import { sharedDataDir } from '../../lib/common/shared-data.ts';
import { cliOptions } from '../../lib/cli/options.ts';
import { ask, childPids, jobsRunning, rssMb, startServerOn, untilWarm } from './load.ts';
import { startRoundRobinProxy } from './round-robin-proxy.ts';
import { stopChild } from './restart.ts';
import { writeScaled } from './scale.ts';

export const scaleOutUsage =
  'npm run bench -- scale-out [--factor 10] [--processes 1,2,3] [--search database] [--clients 50] [--requests 600] [--pipelines bm25,json-qr,hybrid,graph] [--postgres <admin url>] [--work <dir>] [--json out.json]';

/**
 * `bench scale-out`: the deployment docs/operations.md describes for growing past one machine, run whole on this one.
 * A corpus of `--factor` copies of the shared one is imported once into a PostgreSQL database of its own (kept in
 * `--work` and on the server between runs, so a second run measures without importing again), the graph is pushed to
 * a Neo4j server the bench starts, and then for each count of `--processes`: that many production app processes
 * (ASSAY_SEARCH=database, the graph read from Neo4j, one shared data folder) behind a round-robin proxy, one
 * `npm run worker` beside them, and `--clients` clients sharing `--requests` questions over the pipelines. Printed per
 * count: throughput, p50/p95 per pipeline as the clients see them, errors, peak RSS per process, and the CPU and
 * memory of the database server, Neo4j and the app processes over the run.
 */

interface Sample {
  pipeline: string;
  ms: number;
  ok: boolean;
  status: number;
  reason?: string;
}

interface Usage {
  /** CPU seconds used over the run. */
  cpuSeconds: number;
  /** Peak resident memory seen (MiB): RSS for processes of our own, proportional set size for PostgreSQL's. */
  peakMb: number;
}

interface Row {
  processes: number;
  search: string;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  errors: number;
  statuses: Record<string, number>;
  /** Failed requests by pipeline, status and reason ("hybrid 422 This question took too long …"). */
  failures: Record<string, number>;
  latencyMs: Record<string, { p50: number; p95: number; n: number }>;
  apps: Usage[];
  worker: Usage;
  postgres: Usage;
  neo4j: Usage;
  /** Requests the proxy handed to each app process. */
  perProcess: number[];
  /** Requests the proxy sent again on a new connection (their kept one was reset before they reached the app). */
  proxyRetries: number;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The fields of /proc/<pid>/stat after the command's name (state first), or null when the process has ended. */
function procStat(pid: number): string[] | null {
  return readOr(`/proc/${pid}/stat`).split(') ')[1]?.split(' ') ?? null;
}

/** CPU seconds in a process's stat fields. */
const cpuOf = (fields: string[]) => (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;

/** CPU seconds a process and its children have used so far. */
function cpuSeconds(pid: number): number {
  let seconds = 0;
  for (const p of [pid, ...childPids(pid)]) {
    const fields = procStat(p);
    if (fields) seconds += cpuOf(fields);
  }
  return seconds;
}

/** The processes of the PostgreSQL server on this machine (the postmaster and its backends), when it runs here. */
function postgresPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e) && readOr(`/proc/${e}/comm`).trim() === 'postgres')
    .map(Number);
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** PostgreSQL's memory: the proportional set size of its processes (their shared buffers counted once, not per backend). */
function postgresMb(): number {
  let kb = 0;
  for (const p of postgresPids()) kb += Number(/Pss:\s+(\d+) kB/.exec(readOr(`/proc/${p}/smaps_rollup`))?.[1] ?? 0);
  return kb / 1024;
}

/**
 * PostgreSQL's CPU over a run: per server process the CPU it used between its first and last sighting (a backend
 * that starts during the run counts from 0); sampled every second, so a backend's last second before it exits is lost.
 */
function postgresCpuMeter() {
  // Keyed by pid and start time: a backend that exits may have its pid given to a new one, whose CPU starts from 0.
  const seen = new Map<string, { first: number; last: number }>();
  const sample = (fresh: boolean) => {
    for (const p of postgresPids()) {
      // Each server process alone (the postmaster's children are the backends, counted once each here), keyed with
      // its start time.
      const fields = procStat(p);
      if (!fields) continue;
      const now = cpuOf(fields);
      const key = `${p}:${fields[19]}`;
      const s = seen.get(key);
      if (s) s.last = now;
      else seen.set(key, { first: fresh ? now : 0, last: now });
    }
  };
  sample(true);
  return { sample: () => sample(false), seconds: () => [...seen.values()].reduce((t, s) => t + s.last - s.first, 0) };
}

/** The scaled corpus in its own database on the server, imported unless a run before this one did. */
async function scaledDatabase(adminUrl: string, factor: number, work: string, log: (l: string) => void): Promise<{ url: string; dataDir: string }> {
  const name = `assay_scale_out_x${factor}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = path.join(work, `x${factor}`, 'data');
  const marker = path.join(work, `x${factor}`, 'imported.json');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
    if (exists && fs.existsSync(marker)) {
      log(`×${factor}: the corpus imported by an earlier run is used (${fs.readFileSync(marker, 'utf8').trim()}); remove ${marker} to import it again`);
      return { url: url.toString(), dataDir };
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const shared = sharedDataDir();
  if (!shared) throw new Error('../shared/data (or ASSAY_SHARED_DATA) is absent: the bench scales the shared corpus');
  fs.rmSync(path.join(work, `x${factor}`), { recursive: true, force: true });
  const input = path.join(work, `x${factor}`, 'input');
  fs.mkdirSync(path.join(input, 'records'), { recursive: true });
  await writeScaled(path.join(shared, 'corpus', 'papers.jsonl.gz'), path.join(input, 'papers.jsonl.gz'), factor);
  for (const f of fs.readdirSync(path.join(shared, 'records')).filter((f) => f.endsWith('.jsonl.gz')))
    await writeScaled(path.join(shared, 'records', f), path.join(input, 'records', f), factor);
  const cfg = readConfig({ ...process.env, ASSAY_DATA_DIR: dataDir, DATABASE_URL: url.toString(), ASSAY_LOCAL_EMBEDDER: 'ngram', ASSAY_ENRICHMENT: 'off' });
  const db = await openMigratedDatabase(cfg);
  try {
    const report = await runIngest(db, cfg, [input], { trigger: 'cli', recordsIndex: true });
    if (report.status !== 'succeeded') throw new Error(`the ×${factor} import ${report.status}`);
    const line = `${report.papers} papers, ${report.paragraphs} paragraphs, ${report.records} records, imported in ${report.seconds.toFixed(0)} s`;
    log(`×${factor}: ${line}`);
    fs.writeFileSync(marker, `${line}\n`);
  } finally {
    await db.close();
  }
  fs.rmSync(input, { recursive: true, force: true });
  return { url: url.toString(), dataDir };
}

/** Runs a command of the project to its end with `env`, its output prefixed; throws when it fails. */
function runScript(script: string, args: string[], env: Record<string, string>, log: (l: string) => void) {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  for (const line of `${r.stdout}${r.stderr}`.trim().split('\n')) if (line) log(`  ${line}`);
  if (r.status !== 0) throw new Error(`${script} ${args.join(' ')} failed (exit ${r.status})`);
}

function startWorker(env: Record<string, string>): ChildProcess {
  const root = path.resolve(import.meta.dirname, '..', '..');
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'lib', 'cli', 'worker.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
}

async function measure(
  processes: number,
  search: string,
  env: Record<string, string>,
  neo4jPid: number | undefined,
  work: { questions: string[]; pipelines: string[]; clients: number; requests: number },
  log: (l: string) => void,
): Promise<Row> {
  const apps: ChildProcess[] = [];
  let stopping = false;
  const worker = startWorker(env);
  try {
    // One at a time: the first stores the index in the shared data folder (and the search postings in the
    // database), the others read them back, as a deployment's later processes do.
    const bases: string[] = [];
    for (let i = 0; i < processes; i++) {
      const t0 = performance.now();
      const logFile = path.join(path.dirname(env.ASSAY_DATA_DIR), `app-${processes}-${i + 1}.log`);
      const { base, child } = await startServerOn(env.ASSAY_DATA_DIR, { ...env, ASSAY_SEARCH: search }, logFile);
      child.once('exit', (code, signal) => {
        if (!stopping) log(`  app process ${i + 1} (pid ${child.pid}) ended (exit ${code}, signal ${signal}); its output: ${logFile}`);
      });
      apps.push(child);
      bases.push(base);
      // Every pipeline until it answers, so the lazily loaded parts (records, graph, their caches) are in before the
      // clients come: a first question may run out of its time budget (422) while a part loads.
      for (const pipeline of work.pipelines) {
        let status = 0;
        for (let attempt = 0; attempt < 10 && status !== 200; attempt++) {
          status = (await ask(base, work.questions[attempt % work.questions.length], pipeline, 900_000)).status;
          if (status !== 200) await new Promise((r) => setTimeout(r, 3000));
        }
        if (status !== 200) throw new Error(`app process ${i + 1} did not answer a ${pipeline} question in ten tries (HTTP ${status})`);
      }
      await untilWarm(base);
      log(`  app process ${i + 1} (pid ${child.pid}) ready in ${((performance.now() - t0) / 1000).toFixed(0)} s at ${base}`);
    }
    // A first start on a corpus whose records index is not kept writes it as queue shards (the app processes and
    // the worker share them): measured after it, not beside it.
    const t1 = performance.now();
    while ((await jobsRunning(bases[0]).catch(() => false)) && performance.now() - t1 < 900_000) await new Promise((r) => setTimeout(r, 2000));
    if (performance.now() - t1 > 3000) log(`  waited ${((performance.now() - t1) / 1000).toFixed(0)} s for the background jobs (the records index) to end`);
    const proxy = await startRoundRobinProxy(bases);
    const pids = apps.map((a) => a.pid!);
    const peaks = pids.map(() => 0);
    let workerPeak = 0;
    let pgPeak = 0;
    let neoPeak = 0;
    const pgCpu = postgresCpuMeter();
    const sample = () => {
      pids.forEach((p, i) => {
        peaks[i] = Math.max(peaks[i], rssMb(p) ?? 0);
      });
      workerPeak = Math.max(workerPeak, rssMb(worker.pid!) ?? 0);
      pgPeak = Math.max(pgPeak, postgresMb());
      pgCpu.sample();
      if (neo4jPid) neoPeak = Math.max(neoPeak, rssMb(neo4jPid) ?? 0);
    };
    const cpu0 = { apps: pids.map(cpuSeconds), worker: cpuSeconds(worker.pid!), neo: neo4jPid ? cpuSeconds(neo4jPid) : 0 };
    sample();
    const sampler = setInterval(sample, 1000);
    const samples: Sample[] = [];
    let next = 0;
    const t0 = performance.now();
    try {
      await Promise.all(
        Array.from({ length: work.clients }, async () => {
          for (let i = next++; i < work.requests; i = next++) {
            // The pipelines rotate against the proxy's turns (i % pipelines alone would give each process always the
            // same pipeline when their counts are equal).
            const pipeline = work.pipelines[(i + Math.floor(i / work.pipelines.length)) % work.pipelines.length];
            const q = work.questions[Math.floor(i / work.pipelines.length) % work.questions.length];
            const t = await ask(proxy.url, q, pipeline);
            samples.push({ pipeline, ms: t.ms, ok: t.ok, status: t.status, reason: t.reason });
          }
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - t0) / 1000;
    sample();
    await proxy.close();
    const latencyMs: Row['latencyMs'] = {};
    for (const pipeline of work.pipelines) {
      const ms = samples.filter((s) => s.pipeline === pipeline && s.ok).map((s) => s.ms);
      latencyMs[pipeline] = { p50: Math.round(percentile(ms, 50)), p95: Math.round(percentile(ms, 95)), n: ms.length };
    }
    const statuses: Record<string, number> = {};
    const failures: Record<string, number> = {};
    for (const s of samples) {
      statuses[s.status] = (statuses[s.status] ?? 0) + 1;
      const why = `${s.pipeline} ${s.status} ${s.reason ?? ''}`.trim();
      if (!s.ok) failures[why] = (failures[why] ?? 0) + 1;
    }
    return {
      processes,
      search,
      requests: samples.length,
      seconds: Math.round(seconds * 10) / 10,
      requestsPerSecond: Math.round((samples.length / seconds) * 10) / 10,
      errors: samples.filter((s) => !s.ok).length,
      statuses,
      failures,
      latencyMs,
      apps: pids.map((p, i) => ({ cpuSeconds: Math.round(cpuSeconds(p) - cpu0.apps[i]), peakMb: Math.round(peaks[i]) })),
      worker: { cpuSeconds: Math.round(cpuSeconds(worker.pid!) - cpu0.worker), peakMb: Math.round(workerPeak) },
      postgres: { cpuSeconds: Math.round(pgCpu.seconds()), peakMb: Math.round(pgPeak) },
      neo4j: { cpuSeconds: neo4jPid ? Math.round(cpuSeconds(neo4jPid) - cpu0.neo) : 0, peakMb: Math.round(neoPeak) },
      perProcess: [...proxy.counts],
      proxyRetries: proxy.retried(),
    };
  } finally {
    stopping = true;
    for (const a of apps) await stopChild(a);
    await stopChild(worker);
  }
}

export async function benchScaleOut(args: string[]): Promise<void> {
  const opt = cliOptions(args, ['factor', 'processes', 'search', 'clients', 'requests', 'pipelines', 'postgres', 'work', 'json', 'questions']);
  const factor = Number(opt('factor') ?? 10);
  const counts = (opt('processes') ?? '1,2,3').split(',').map(Number);
  const searches = (opt('search') ?? 'database').split(',');
  const clients = Number(opt('clients') ?? 50);
  const requests = Number(opt('requests') ?? 600);
  const pipelines = (opt('pipelines') ?? 'bm25,json-qr,hybrid,graph').split(',');
  if (!(factor >= 1) || !counts.every((n) => Number.isInteger(n) && n >= 1) || !(clients >= 1) || !(requests >= 1)) throw new Error(`usage: ${scaleOutUsage}`);
  if (!pipelines.every(isPipelineName)) throw new Error(`unknown pipeline in ${pipelines.join(',')}`);
  if (!searches.every((s) => s === 'memory' || s === 'database')) throw new Error('--search takes memory, database or both');
  const adminUrl = opt('postgres') ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const work = path.resolve(opt('work') ?? path.join(os.tmpdir(), 'assay-scale-out'));
  const shared = sharedDataDir();
  const questionsFile = opt('questions') ?? (shared ? path.join(shared, 'questions-hard.dev.jsonl') : undefined);
  if (!questionsFile || !fs.existsSync(questionsFile)) throw new Error('give --questions <jsonl> (../shared/data is absent)');
  const questions = (await loadQuestions(questionsFile)).map((q) => q.question);
  const log = (l: string) => console.log(l);

  const t0 = performance.now();
  const { url, dataDir } = await scaledDatabase(adminUrl, factor, work, log);
  log(`×${factor} database ready after ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  // Neo4j's store is kept beside the corpus, so a later run needs no second push of the graph.
  const store = path.join(work, `x${factor}`, 'neo4j');
  const synced = path.join(work, `x${factor}`, 'graph-synced.json');
  if (!fs.existsSync(synced)) fs.rmSync(store, { recursive: true, force: true });
  fs.mkdirSync(store, { recursive: true });
  const neo4j = await startNeo4j({ store, log: (l) => log(`  [neo4j] ${l}`) });
  const rows: Row[] = [];
  try {
    const env = {
      DATABASE_URL: url,
      ASSAY_DATA_DIR: dataDir,
      NEO4J_URI: neo4j.uri,
      NEO4J_USER: 'neo4j',
      NEO4J_PASSWORD: '',
      ASSAY_LOCAL_EMBEDDER: 'ngram',
      ASSAY_ENRICHMENT: 'off',
    };
    if (fs.existsSync(synced)) log(`the graph pushed to Neo4j by an earlier run is used (${fs.readFileSync(synced, 'utf8').trim()})`);
    else {
      const t1 = performance.now();
      runScript('lib/cli/graph.ts', ['sync'], env, log);
      const line = `pushed in ${((performance.now() - t1) / 1000).toFixed(0)} s`;
      log(`graph ${line} to Neo4j (${neo4j.uri})`);
      fs.writeFileSync(synced, `${line}\n`);
    }
    for (const search of searches)
      for (const n of counts) {
        log(`\n${n} app process(es), ASSAY_SEARCH=${search}, ${clients} clients, ${requests} questions over ${pipelines.join(', ')}`);
        const row = await measure(n, search, env, neo4j.pid, { questions, pipelines, clients, requests }, log);
        rows.push(row);
        log(
          `  ${row.requests} questions in ${row.seconds} s: ${row.requestsPerSecond}/s, ${row.errors} errors; ${pipelines.map((p) => `${p} ${row.latencyMs[p].p50}/${row.latencyMs[p].p95} ms`).join(', ')}`,
        );
        for (const [why, n] of Object.entries(row.failures)) log(`  failed ×${n}: ${why}`);
        if (row.proxyRetries) log(`  the proxy sent ${row.proxyRetries} requests again on a new connection (a kept one was reset)`);
      }
  } finally {
    await neo4j.stop();
  }
  const cores = os.cpus().length;
  console.log(`\n×${factor} on ${cores} cores; p50/p95 in ms as the clients see them; CPU in cores used over the run; memory in MiB (peak)`);
  console.log(
    `| app processes | search | questions/s | errors | ${pipelines.join(' | ')} | RSS per app process | worker RSS | PostgreSQL CPU / PSS | Neo4j CPU / RSS | apps' CPU |`,
  );
  console.log(`|---|---|---|---|${pipelines.map(() => '---|').join('')}---|---|---|---|---|`);
  for (const r of rows) {
    const cores = (s: number) => (s / r.seconds).toFixed(2);
    console.log(
      `| ${r.processes} | ${r.search} | ${r.requestsPerSecond} | ${r.errors} | ${pipelines.map((p) => `${r.latencyMs[p].p50} / ${r.latencyMs[p].p95}`).join(' | ')} | ${r.apps.map((a) => a.peakMb).join(', ')} | ${r.worker.peakMb} | ${cores(r.postgres.cpuSeconds)} / ${r.postgres.peakMb} | ${cores(r.neo4j.cpuSeconds)} / ${r.neo4j.peakMb} | ${r.apps.map((a) => cores(a.cpuSeconds)).join(', ')} |`,
    );
  }
  const out = { factor, cores, clients, requests, pipelines, rows };
  console.log(JSON.stringify(out));
  const json = opt('json');
  if (json) fs.writeFileSync(json, `${JSON.stringify(out, null, 2)}\n`);
}
