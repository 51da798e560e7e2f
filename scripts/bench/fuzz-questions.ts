import fs from 'node:fs';
import { readConfig } from '../../lib/config.ts';
import { PIPELINES } from '../../lib/pipelines/registry.ts';
import { hostileQuestions } from '../test-support/hostile-questions.ts';
import { copyDataDir, rssMb, startServerOn, stopServer, untilWarm } from './load.ts';
import { cliOptions } from '../../lib/cli/options.ts';
import { benchFuzzConcurrent } from './fuzz-concurrent.ts';
import { pollHealth } from './health-poll.ts';

/**
 * `npm run bench -- fuzz-questions`: hostile but well-formed questions (scripts/test-support/hostile-questions.ts) sent one at a
 * time to every pipeline and every route a person's text reaches on a production server — /api/retrieve (each
 * pipeline), /api/answers, the library's search and filters, the graph's searches, the stored answers' search and the
 * pages that echo a question — while /api/health is polled. Prints the slowest route per kind of question and the
 * slowest kind per route, with their status; the health check's worst latency; the server's memory before, at its
 * peak and after; and how many retrieval workers were stopped and replaced. A question ends with an answer (2xx) or a
 * clear error (4xx, or 503 with a message); a 5xx other than 503, a timeout or a dropped connection is a failure.
 */
export const fuzzUsage = `npm run bench -- fuzz-questions [--url http://127.0.0.1:3000 [--pid <server pid>]] [--rounds 1] [--random 8] [--kinds comma,range] [--routes retrieve:hybrid,library?q] [--timeout 60] [--json out.json]
       npm run bench -- fuzz-questions --concurrent N [--seconds 60] [--url … [--pid …]] [--json out.json]`;

interface Route {
  name: string;
  request: (base: string, text: string) => { url: string; init: RequestInit };
}

const json = (url: string, body: unknown) => ({
  url,
  init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
});
const get = (url: string) => ({ url, init: { method: 'GET' } });
const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

/** Every place a person's text reaches, by name. */
export const FUZZ_ROUTES: Route[] = [
  ...PIPELINES.map((p) => ({ name: `retrieve:${p}`, request: (b: string, t: string) => json(`${b}/api/retrieve`, { question: t, pipeline: p }) })),
  { name: 'answers', request: (b, t) => json(`${b}/api/answers`, { question: t }) },
  { name: 'answers?q', request: (b, t) => get(`${b}/api/answers?${query({ q: t })}`) },
  { name: 'library?q', request: (b, t) => get(`${b}/library?${query({ q: t })}`) },
  { name: 'library?condition', request: (b, t) => get(`${b}/library?${query({ condition: t })}`) },
  { name: 'library?material', request: (b, t) => get(`${b}/library?${query({ material: t })}`) },
  { name: 'graph?q', request: (b, t) => get(`${b}/graph?${query({ q: t })}`) },
  { name: 'graph?entity', request: (b, t) => get(`${b}/graph?${query({ entity: t })}`) },
  { name: 'search?q', request: (b, t) => get(`${b}/search?${query({ q: t })}`) },
  { name: 'compare?q', request: (b, t) => get(`${b}/compare?${query({ q: t, p: 'hybrid' })}&p=graph`) },
];

interface Sent {
  kind: string;
  route: string;
  ms: number;
  /** HTTP status; 0 for a timeout or a dropped connection. */
  status: number;
  outcome: 'answered' | 'clear error' | 'failed';
}

const outcomeOf = (status: number): Sent['outcome'] =>
  status >= 200 && status < 300 ? 'answered' : (status >= 400 && status < 500) || status === 503 ? 'clear error' : 'failed';

async function send(route: Route, base: string, kind: string, text: string, timeoutMs: number): Promise<Sent> {
  const { url, init } = route.request(base, text);
  const t0 = performance.now();
  let status = 0;
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    status = res.status;
  } catch {
    status = 0;
  }
  return { kind, route: route.name, ms: performance.now() - t0, status, outcome: outcomeOf(status) };
}

const pick = (names: string | undefined, all: string[], what: string): Set<string> => {
  if (!names) return new Set(all);
  const chosen = names.split(',').map((n) => n.trim());
  const unknown = chosen.filter((n) => !all.includes(n));
  if (unknown.length) throw new Error(`unknown ${what}: ${unknown.join(', ')} (known: ${all.join(', ')})`);
  return new Set(chosen);
};

export async function benchFuzzQuestions(args: string[]): Promise<void> {
  const opt = cliOptions(args, ['url', 'pid', 'random', 'kinds', 'routes', 'timeout', 'json', 'settle', 'rounds', 'concurrent', 'seconds']);
  if (opt('concurrent')) return benchFuzzConcurrent(opt);
  const random = Number(opt('random') ?? 8);
  // Rounds: memory that grows in the first and not after is a high-water mark (V8's heap, PGlite's memory), not a leak.
  const rounds = Number(opt('rounds') ?? 1);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds is a whole number from 1');
  const timeoutMs = Number(opt('timeout') ?? 60) * 1000;
  const settleMs = Number(opt('settle') ?? 10) * 1000;
  if (!Number.isInteger(random) || random < 0 || !(timeoutMs > 0) || !(settleMs >= 0))
    throw new Error('--random is a whole number; --timeout and --settle are seconds');
  const all = hostileQuestions(undefined, random);
  const kinds = pick(
    opt('kinds'),
    all.map((q) => q.kind),
    'kind',
  );
  const routeNames = pick(
    opt('routes'),
    FUZZ_ROUTES.map((r) => r.name),
    'route',
  );
  const questions = all.filter((q) => kinds.has(q.kind));
  const routes = FUZZ_ROUTES.filter((r) => routeNames.has(r.name));

  const url = opt('url');
  const copy = url ? null : copyDataDir(readConfig().dataDir);
  const server = copy ? await startServerOn(copy) : null;
  const base = url?.replace(/\/+$/, '') ?? server!.base;
  let peak = 0;
  // The server's memory: the one started here, or the process --pid names (a server started by hand).
  const pid = server?.child.pid ?? (opt('pid') ? Number(opt('pid')) : null);
  const sample = () => (pid ? (rssMb(pid) ?? 0) : 0);
  const sampler = pid ? setInterval(() => (peak = Math.max(peak, sample())), 200) : null;
  try {
    await untilWarm(base);
    // An ordinary question to every route first: what a first question loads (the records and graph indexes, the
    // model's session, each route's code) is neither counted against a hostile one nor in the memory's growth.
    for (const r of routes) await send(r, base, 'warm-up', 'What is the ionic conductivity of YSZ at 800 °C?', timeoutMs);
    await new Promise((r) => setTimeout(r, settleMs));
    const before = Math.round(sample());
    console.log(`${questions.length} questions × ${routes.length} routes, one at a time, ${base}${pid ? `; server RSS ${before} MiB` : ''}`);
    const health = pollHealth(base);
    const sent: Sent[] = [];
    const t0 = performance.now();
    let gaveUp: string | null = null;
    const afterRounds: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      // Each round's random mixtures are new ones (the repeated kinds are the same): what the server keeps per new
      // question shows as growth from round to round.
      const fresh = new Map(hostileQuestions(undefined, random, 62 + round - 1).map((q) => [q.kind, q.text]));
      for (const q of questions.map((x) => ({ ...x, text: fresh.get(x.kind) ?? x.text })))
        for (const r of routes) {
          // A server that stopped answering its health check is held: the rest would only time out one by one.
          if (gaveUp || health.silentMs() > 60_000) {
            gaveUp ??= `${q.kind} → ${r.name}`;
            continue;
          }
          const s = await send(r, base, q.kind, q.text, timeoutMs);
          sent.push(s);
          if (s.outcome === 'failed') console.log(`  ${q.kind} → ${r.name}: ${s.status || 'no answer'} after ${(s.ms / 1000).toFixed(1)} s`);
        }
      if (rounds > 1) {
        afterRounds.push(Math.round(sample()));
        if (pid) console.log(`  round ${round}: server RSS ${afterRounds.at(-1)} MiB`);
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    if (gaveUp)
      console.log(
        `the server did not answer /api/health for a minute: stopped before ${gaveUp} (worst health latency so far ${Math.round(health.worstSoFar() / 1000)} s)`,
      );
    const h = await health.stop();
    await new Promise((r) => setTimeout(r, settleMs));
    const after = Math.round(sample());

    const slowest = (xs: Sent[]): Sent => xs.reduce((a, b) => (b.ms > a.ms ? b : a), { kind: '–', route: '–', ms: 0, status: 0, outcome: 'failed' });
    const fmt = (s: Sent) => `${Math.round(s.ms)} ms (${s.status || 'no answer'})`;
    console.log(`\nslowest route per kind of question (${seconds.toFixed(0)} s in all)`);
    for (const q of questions) {
      const mine = sent.filter((s) => s.kind === q.kind);
      const worst = slowest(mine);
      console.log(`  ${q.kind.padEnd(20)} ${worst.route.padEnd(20)} ${fmt(worst)}`);
    }
    console.log('\nslowest kind per route, and outcomes');
    const perRoute = routes.map((r) => {
      const mine = sent.filter((s) => s.route === r.name);
      const worst = slowest(mine);
      const count = (o: Sent['outcome']) => mine.filter((s) => s.outcome === o).length;
      const statuses = [...new Set(mine.map((s) => s.status))].sort((a, b) => a - b);
      console.log(
        `  ${r.name.padEnd(20)} ${worst.kind.padEnd(20)} ${fmt(worst).padEnd(22)} answered ${count('answered')}, clear errors ${count('clear error')}, failed ${count('failed')}; statuses ${statuses.join(' ')}`,
      );
      return {
        route: r.name,
        slowestKind: worst.kind,
        slowestMs: Math.round(worst.ms),
        answered: count('answered'),
        clearErrors: count('clear error'),
        failed: count('failed'),
        statuses,
      };
    });
    const failed = sent.filter((s) => s.outcome === 'failed').length;
    console.log(
      `\n${sent.length} requests: ${failed} failed; /api/health worst ${h.worstMs} ms (${h.failures} failed polls); retrieval workers replaced ${h.restarts}` +
        (pid ? `; server RSS ${before} MiB before, ${Math.round(peak)} MiB peak, ${after} MiB ${settleMs / 1000} s after` : ''),
    );
    const out = {
      questions: questions.length,
      routes: routes.length,
      requests: sent.length,
      failed,
      notSent: rounds * questions.length * routes.length - sent.length,
      rounds,
      seconds: Math.round(seconds),
      healthWorstMs: h.worstMs,
      healthFailures: h.failures,
      workerRestarts: h.restarts,
      rssMb: pid ? { before, peak: Math.round(peak), after, ...(rounds > 1 ? { afterRounds } : {}) } : null,
      perKind: questions.map((q) => {
        const worst = slowest(sent.filter((s) => s.kind === q.kind));
        return { kind: q.kind, slowestRoute: worst.route, slowestMs: Math.round(worst.ms), status: worst.status };
      }),
      perRoute,
    };
    console.log(JSON.stringify(out));
    const file = opt('json');
    if (file) fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  } finally {
    if (sampler) clearInterval(sampler);
    if (server && copy) await stopServer({ child: server.child, copy });
  }
}
