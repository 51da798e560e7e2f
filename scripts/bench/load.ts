import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readConfig } from '../../lib/config.ts';
import { loadQuestions } from '../../lib/evaluation/questions.ts';
import { percentile } from '../../lib/evaluation/retrieval-metrics.ts';
import { isPipelineName } from '../../lib/pipelines/registry.ts';
import { startBuiltApp } from '../test-support/built-app.ts';
import { sharedDataDir } from '../../lib/common/shared-data.ts';
import { cliOptions } from '../../lib/cli/options.ts';

/**
 * `npm run bench -- load`: many clients asking at once, against a production server. Without `--url` it starts
 * one (`next start` on loopback, on a copy of the data folder, so the bench never writes to the real one) and
 * stops it afterwards. It measures one client asking alone first, then `--clients` clients sharing `--requests`
 * requests (each client asks its next question as soon as its last is answered), and prints errors, latency
 * p50/p95 of both, throughput and the server's peak resident memory; `--json` writes the figures.
 */
export const loadUsage = `npm run bench -- load [--clients 50] [--requests 500] [--single 100] [--pipeline hybrid] [--questions <jsonl>] [--url http://127.0.0.1:3000] [--json out.json] [--during-import papers.jsonl]`;

interface Timed {
  ms: number;
  ok: boolean;
  /** The HTTP status (0: no answer at all). */
  status: number;
  /** The route handler's own time (its Server-Timing header), when the server sends it. */
  handlerMs?: number;
  /** Why it failed: the error the server answered with, or the socket's error when no answer came. */
  reason?: string;
}

// Connections are kept open between a client's questions, as a browser keeps them.
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/**
 * One question to `/api/retrieve`: its time as the client sees it, whether it was answered, the handler's share.
 * Asked with node:http rather than fetch: the clients run on the server's machine, and fetch spent 3–4 ms of CPU a
 * request there against 1–1.3 ms (300 questions from 50 clients), CPU the server under test then did not have.
 */
/** One question over HTTP; `timeoutMs`: how long its socket may stay silent (a first start at ×10 builds for minutes). */
export function ask(base: string, question: string, pipeline: string, timeoutMs = 120_000): Promise<Timed> {
  const t0 = performance.now();
  const url = new URL(`${base}/api/retrieve`);
  const body = JSON.stringify({ question, pipeline });
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Timed>((resolve) => {
    const failed = (error: Error) => resolve({ ms: performance.now() - t0, ok: false, status: 0, reason: error.message });
    const req = client.request(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol as keyof typeof agents],
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        // A failure's body is kept (its error message); an answer's is only read to its end.
        let text = '';
        res.on('data', (chunk: Buffer) => {
          if (!ok && text.length < 2000) text += chunk.toString('utf8');
        });
        res.on('error', failed);
        res.on('end', () => {
          const handler = /handler;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''))?.[1];
          resolve({
            ms: performance.now() - t0,
            ok,
            status,
            ...(handler ? { handlerMs: Number(handler) } : {}),
            ...(ok ? {} : { reason: failureReason(text) }),
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', failed);
    req.end(body);
  });
}

/** A failed request's reason: the `error` of a JSON error body, else the body's start. */
export function failureReason(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // not JSON: a proxy's or the framework's text
  }
  return body.trim().slice(0, 200) || '(no body)';
}

/**
 * Resident memory of a process and its children, in MiB (Linux /proc; null elsewhere). The children are read from the
 * kernel's list of each thread's children: scanning every process's status for its parent took 4–10 ms, and the
 * benches sample every 200 ms on the thread that times the questions, which delayed whichever answer came meanwhile.
 */
export function rssMb(pid: number): number | null {
  const read = (p: number) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  if (!fs.existsSync(`/proc/${pid}`)) return null;
  let total = read(pid);
  for (const child of childPids(pid)) total += read(child);
  return total;
}

/** A process's children: from /proc/<pid>/task/<tid>/children where the kernel has it, else by every process's parent. */
export function childPids(pid: number): number[] {
  try {
    const tasks = fs.readdirSync(`/proc/${pid}/task`);
    const children = tasks.flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    return [...new Set(children)];
  } catch {
    // No children files (a kernel without CONFIG_PROC_CHILDREN), or the process ended meanwhile.
  }
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (/PPid:\s+(\d+)/.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1] === String(pid)) out.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/** A copy of the data folder (uploads left out), so a bench never writes to the real one. */
export function copyDataDir(dataDir: string): string {
  if (!fs.existsSync(dataDir)) throw new Error(`no data folder at ${dataDir} (set ASSAY_DATA_DIR, or give --url)`);
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-load-'));
  fs.cpSync(dataDir, copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}uploads`) });
  return copy;
}

async function startServer(dataDir: string): Promise<{ base: string; child: ChildProcess; copy: string }> {
  const copy = copyDataDir(dataDir);
  return { ...(await startServerOn(copy)), copy };
}

/** Until the server says its start-up's indexes and paper caches are warm (/api/health), for at most 5 minutes. */
export async function untilWarm(base: string): Promise<void> {
  let failures = 0;
  for (let i = 0; i < 600; i++) {
    let health: { warmingIndexes?: boolean; retrievalWorkers?: { warmingCaches?: boolean } };
    try {
      health = (await (await fetch(`${base}/api/health`)).json().catch(() => ({}))) as typeof health;
      failures = 0;
    } catch (error) {
      // A server busy warming may reset one kept connection; three failures in a row are a server that is gone.
      if (++failures < 3) {
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      const e = error as Error;
      throw new Error(`${base}/api/health did not answer while warming: ${e.message} (${(e.cause as Error | undefined)?.message ?? 'no cause given'})`);
    }
    if (!health.warmingIndexes && !health.retrievalWorkers?.warmingCaches) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The built app serving `dataDir`, once it answers /api/health; `env` overrides the server's environment. */
export async function startServerOn(
  dataDir: string,
  env: Record<string, string> = {},
  /** A file the server's output is written to (default: none kept). */
  logFile?: string,
): Promise<{ base: string; child: ChildProcess }> {
  const root = path.resolve(import.meta.dirname, '..', '..');
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) throw new Error('no production build: run `npm run build` first');
  const copy = dataDir;
  const port = await freePort();
  const child = startBuiltApp(
    String(port),
    // The bench's clients are anonymous visitors on one loopback address: past the stored-answer quota of one visitor.
    {
      ASSAY_DATA_DIR: copy,
      ASSAY_CORPUS: '',
      ASSAY_REFORMULATION: 'rules',
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      ASSAY_ANONYMOUS_ANSWERS_PER_HOUR: '100000',
      ...env,
    },
    { detached: false, ...(logFile ? { stdio: 'pipe' as const } : {}) },
  );
  if (logFile) {
    const out = fs.createWriteStream(logFile);
    child.stdout?.pipe(out);
    child.stderr?.pipe(out);
  }
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 2400; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, child };
    } catch {
      // not listening yet
    }
    // Often enough that when it first answered is measured to within 50 ms (bench restart holds a restart to 2 s).
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not answer /api/health within 120 s');
}

/** A session of the first account (an empty account table makes it the admin), for the import. */
async function adminSession(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.org`, password: 'bench-load-password-1', name: 'Bench' }),
  });
  const cookie = (res.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  if (!res.ok || !cookie) throw new Error(`--during-import needs the first account of the copied data folder (sign-up answered ${res.status})`);
  return cookie;
}

async function uploadForImport(base: string, cookie: string, file: string) {
  const form = new FormData();
  form.append('files', new Blob([fs.readFileSync(file)]), path.basename(file));
  const res = await fetch(`${base}/api/import`, { method: 'POST', headers: { cookie, origin: base }, body: form });
  if (res.status !== 202) throw new Error(`the import was refused (${res.status}: ${await res.text()})`);
}

export const jobsRunning = async (base: string) => (((await (await fetch(`${base}/api/jobs`)).json()) as { jobs: unknown[] }).jobs ?? []).length > 0;

export async function benchLoad(args: string[]): Promise<void> {
  const opt = cliOptions(args, ['clients', 'requests', 'single', 'pipeline', 'questions', 'url', 'json', 'during-import']);
  const clients = Number(opt('clients') ?? 50);
  const requests = Number(opt('requests') ?? 500);
  const single = Number(opt('single') ?? 100);
  if (![clients, requests, single].every((n) => Number.isInteger(n) && n > 0 && n <= 100_000))
    throw new Error('clients, requests and single are whole numbers from 1');
  const pipeline = opt('pipeline') ?? 'hybrid';
  if (!isPipelineName(pipeline)) throw new Error(`unknown pipeline: ${pipeline}`);
  const shared = sharedDataDir();
  const questionsFile = opt('questions') ?? (shared ? path.join(shared, 'questions-hard.dev.jsonl') : undefined);
  if (!questionsFile || !fs.existsSync(questionsFile)) throw new Error('give --questions <jsonl> (../shared/data is absent)');
  const questions = (await loadQuestions(questionsFile)).map((q) => q.question);

  const url = opt('url');
  const server = url ? null : await startServer(readConfig().dataDir);
  const base = url?.replace(/\/+$/, '') ?? server!.base;
  let peak = 0;
  const sampler = server
    ? setInterval(() => {
        peak = Math.max(peak, rssMb(server.child.pid!) ?? 0);
      }, 200)
    : null;
  try {
    // The first question builds the index: not part of either measurement.
    const warm = await ask(base, questions[0], pipeline);
    if (!warm.ok) throw new Error(`the server did not answer a first question (${base}/api/retrieve)`);
    console.log(`index warm after ${(warm.ms / 1000).toFixed(1)} s; ${questions.length} questions, pipeline ${pipeline}, ${base}`);
    // Nor is the rest of the server's start-up warm (graph index, paper caches, storing the indexes): it is waited for.
    const t1 = performance.now();
    await untilWarm(base);
    // The indexes are stored a turn after they are handed out: give that a moment too.
    await new Promise((r) => setTimeout(r, 2000));
    console.log(`start-up warm-up over ${((performance.now() - t1) / 1000).toFixed(1)} s after that`);

    const alone: Timed[] = [];
    for (let i = 0; i < single; i++) alone.push(await ask(base, questions[(i + 1) % questions.length], pipeline));

    const together: Timed[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = next++; i < requests; i = next++) together.push(await ask(base, questions[(i * 7 + 3) % questions.length], pipeline));
      }),
    );
    const seconds = (performance.now() - t0) / 1000;

    // Last, one client again while the server imports a file (its import job: reading, structuring, graph, indexes),
    // so the load above is measured on an idle server.
    const peakBeforeImport = peak;
    const importing: Timed[] = [];
    let importSeconds: number | null = null;
    const importFile = opt('during-import');
    if (importFile) {
      const cookie = await adminSession(base);
      const t = performance.now();
      await uploadForImport(base, cookie, importFile);
      for (let i = 0; (await jobsRunning(base)) && importing.length < 10_000; i++)
        importing.push(await ask(base, questions[(i + 5) % questions.length], pipeline));
      importSeconds = (performance.now() - t) / 1000;
    }

    const stat = (xs: Timed[], of: (x: Timed) => number | undefined = (x) => x.ms) => {
      const ms = xs.map(of).filter((x): x is number => x !== undefined);
      return { p50: Math.round(percentile(ms, 50)), p95: Math.round(percentile(ms, 95)) };
    };
    const out = {
      clients,
      requests,
      errors: together.filter((x) => !x.ok).length + alone.filter((x) => !x.ok).length,
      single: stat(alone),
      ...(importFile ? { single_during_import: { ...stat(importing), requests: importing.length, import_seconds: importSeconds } } : {}),
      concurrent: stat(together),
      // The route handler's share: what the clients waited beyond it was spent before or after it (HTTP, framework).
      concurrent_handler: together.some((x) => x.handlerMs !== undefined) ? stat(together, (x) => x.handlerMs) : null,
      requests_per_second: Math.round((requests / seconds) * 10) / 10,
      rss_mb: server ? Math.round(peakBeforeImport) : null,
      ...(importFile && server ? { rss_mb_with_import: Math.round(peak) } : {}),
    };
    console.log(`one client:  ${single} requests, p50 ${out.single.p50} ms, p95 ${out.single.p95} ms`);
    if (out.single_during_import)
      console.log(
        `one client while an import runs: ${importing.length} requests over the import's ${importSeconds?.toFixed(0)} s, p50 ${out.single_during_import.p50} ms, p95 ${out.single_during_import.p95} ms (${(out.single_during_import.p95 / Math.max(out.single.p95, 1)).toFixed(1)}× idle p95)`,
      );
    console.log(
      `${clients} clients: ${requests} requests in ${seconds.toFixed(1)} s (${out.requests_per_second}/s), p50 ${out.concurrent.p50} ms, p95 ${out.concurrent.p95} ms, ${out.errors} errors`,
    );
    if (out.concurrent_handler)
      console.log(
        `  of which in the route handler (retrieval, its wait in line, the JSON): p50 ${out.concurrent_handler.p50} ms, p95 ${out.concurrent_handler.p95} ms`,
      );
    console.log(
      `p95 ratio ${(out.concurrent.p95 / Math.max(out.single.p95, 1)).toFixed(1)}× single-user p95${out.rss_mb !== null ? `; server peak RSS ${out.rss_mb} MiB` : ''}${out.rss_mb_with_import ? ` (${out.rss_mb_with_import} MiB with the import)` : ''}`,
    );
    console.log(JSON.stringify(out));
    const json = opt('json');
    if (json) fs.writeFileSync(json, `${JSON.stringify(out, null, 2)}\n`);
  } finally {
    if (sampler) clearInterval(sampler);
    if (server) await stopServer(server);
  }
}

/** Stops a server a bench started on a copy of the data folder (SIGTERM, then SIGKILL after 1.5 s) and removes the copy. */
export async function stopServer(server: { child: ChildProcess; copy: string }): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
  fs.rmSync(server.copy, { recursive: true, force: true });
}
