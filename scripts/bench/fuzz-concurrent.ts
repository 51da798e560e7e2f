import fs from 'node:fs';
import { readConfig } from '../../lib/config.ts';
import { hostileQuestions, QUESTION_LIMIT } from '../test-support/hostile-questions.ts';
import { pollHealth } from './health-poll.ts';
import { copyDataDir, rssMb, startServerOn, stopServer, untilWarm } from './load.ts';

/**
 * `npm run bench -- fuzz-questions --concurrent N`: N attacking clients and one ordinary visitor at once, on a
 * production server. Each attacker, from an address of its own, sends 2,000-character questions (long word lists,
 * and the hostile generator's mixtures) to the graph pipeline and the answer route as fast as they are answered; the
 * visitor, from another address, asks ordinary questions one after another. The server it starts trusts loopback as
 * its proxy (ASSAY_TRUSTED_PROXIES=loopback), so that each client's X-Forwarded-For is the address it is taken for,
 * as behind a real reverse proxy. Prints the visitor's p50/p95/worst and failures, what the attackers got, the health
 * check's worst latency, retrieval workers replaced and the server's peak memory.
 */
const LONG_TEXT = [
  'What is the ionic conductivity of yttria-stabilized zirconia compared with gadolinium-doped ceria and lanthanum strontium gallium magnesium oxide at 600 °C, 700 °C and 800 °C in air and in wet hydrogen, and how do the cathodes LSCF, LSM, BSCF and SSC change the power density of the cells, the polarization resistance, the thermal expansion coefficient and the stability over 1000 hours of operation? ',
  'Which papers report the synthesis of LiFePO4, LiMn2O4, LiCoO2, NMC811, LLZO, Li3PS4, Li7P3S11, BaZrO3, BaCeO3, SrTiO3, TiO2, ZnO, MgB2, YBa2Cu3O7 and MoS2 by sol-gel, hydrothermal, solid-state, coprecipitation and combustion routes, with their precursors, calcination temperatures, sintering times, atmospheres, particle sizes, surface areas and capacities? ',
];
const longQuestions = (): string[] => [
  ...LONG_TEXT.map((t) => t.repeat(Math.ceil(QUESTION_LIMIT / t.length)).slice(0, QUESTION_LIMIT)),
  ...hostileQuestions(QUESTION_LIMIT, 6)
    .filter((q) => q.kind.startsWith('random') || ['units', 'formula', 'words-and-values'].includes(q.kind))
    .map((q) => q.text),
];
/** What an ordinary visitor asks (invented here, in the kinds the dev sets hold). */
const ORDINARY = [
  'What is the ionic conductivity of YSZ at 800 °C?',
  'How is LiFePO4 made by sol-gel?',
  'Which papers report proton-conducting BaZrO3 electrolytes?',
  'What is the band gap of anatase TiO2?',
  'Is GDC or YSZ the better electrolyte at 600 °C?',
  'What calcination temperature is used for LiMn2O4?',
];

interface Outcome {
  ms: number;
  status: number;
}

async function post(url: string, body: unknown, address: string, timeoutMs: number): Promise<Outcome> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer();
    return { ms: performance.now() - t0, status: res.status };
  } catch {
    return { ms: performance.now() - t0, status: 0 };
  }
}

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const counts = (xs: Outcome[]) =>
  Object.fromEntries([...new Set(xs.map((x) => x.status))].sort().map((s) => [s || 'no answer', xs.filter((x) => x.status === s).length]));

export async function benchFuzzConcurrent(opt: (name: 'concurrent' | 'seconds' | 'timeout' | 'url' | 'pid' | 'json') => string | undefined): Promise<void> {
  const attackers = Number(opt('concurrent'));
  const seconds = Number(opt('seconds') ?? 60);
  const timeoutMs = Number(opt('timeout') ?? 60) * 1000;
  if (!Number.isInteger(attackers) || attackers < 1 || !(seconds > 0)) throw new Error('--concurrent is a whole number of clients; --seconds a duration');
  const url = opt('url');
  const copy = url ? null : copyDataDir(readConfig().dataDir);
  const server = copy ? await startServerOn(copy, { ASSAY_TRUSTED_PROXIES: 'loopback' }) : null;
  const base = url?.replace(/\/+$/, '') ?? server!.base;
  const pid = server?.child.pid ?? (opt('pid') ? Number(opt('pid')) : null);
  let peak = 0;
  const sampler = pid ? setInterval(() => (peak = Math.max(peak, rssMb(pid) ?? 0)), 200) : null;
  try {
    await untilWarm(base);
    // What a first question loads (indexes, caches) is counted against neither side.
    for (const p of ['graph', 'hybrid']) await post(`${base}/api/retrieve`, { question: ORDINARY[0], pipeline: p }, '10.1.0.1', timeoutMs);
    await post(`${base}/api/answers`, { question: ORDINARY[1] }, '10.1.0.1', timeoutMs);
    const long = longQuestions();
    const health = pollHealth(base);
    const until = performance.now() + seconds * 1000;
    const attacked: Outcome[] = [];
    const attack = async (n: number) => {
      for (let i = 0; performance.now() < until; i++) {
        const question = long[(n + i) % long.length];
        const address = `10.66.${Math.floor(n / 250)}.${(n % 250) + 1}`;
        attacked.push(
          i % 2
            ? await post(`${base}/api/answers`, { question }, address, timeoutMs)
            : await post(`${base}/api/retrieve`, { question, pipeline: 'graph' }, address, timeoutMs),
        );
      }
    };
    const visited: Outcome[] = [];
    const visit = async () => {
      // The attack starts first: the visitor comes into a server already under it.
      await new Promise((r) => setTimeout(r, 2_000));
      for (let i = 0; performance.now() < until; i++) {
        visited.push(await post(`${base}/api/answers`, { question: ORDINARY[i % ORDINARY.length] }, '10.1.0.1', timeoutMs));
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    console.log(`${attackers} attacking clients and one visitor for ${seconds} s, ${base}`);
    await Promise.all([...Array.from({ length: attackers }, (_, n) => attack(n)), visit()]);
    const h = await health.stop();
    const ok = visited.filter((v) => v.status >= 200 && v.status < 300);
    const fiveXX = visited.filter((v) => v.status >= 500 || v.status === 0).length;
    const ms = visited.map((v) => v.ms);
    const out = {
      attackers,
      seconds,
      visitor: {
        asked: visited.length,
        answered: ok.length,
        failed5xx: fiveXX,
        statuses: counts(visited),
        p50Ms: Math.round(quantile(ms, 0.5)),
        p95Ms: Math.round(quantile(ms, 0.95)),
        worstMs: Math.round(Math.max(0, ...ms)),
      },
      attackersGot: {
        sent: attacked.length,
        statuses: counts(attacked),
        p50Ms: Math.round(
          quantile(
            attacked.map((a) => a.ms),
            0.5,
          ),
        ),
      },
      healthWorstMs: h.worstMs,
      healthFailures: h.failures,
      workerRestarts: h.restarts,
      peakRssMb: pid ? Math.round(peak) : null,
    };
    console.log(
      `visitor: ${out.visitor.answered}/${out.visitor.asked} answered, ${fiveXX} failed (5xx or none), p50 ${out.visitor.p50Ms} ms, p95 ${out.visitor.p95Ms} ms, worst ${out.visitor.worstMs} ms; statuses ${JSON.stringify(out.visitor.statuses)}`,
    );
    console.log(`attackers: ${attacked.length} sent; statuses ${JSON.stringify(out.attackersGot.statuses)}; p50 ${out.attackersGot.p50Ms} ms`);
    console.log(
      `/api/health worst ${h.worstMs} ms (${h.failures} failed polls); retrieval workers replaced ${h.restarts}${pid ? `; server peak RSS ${out.peakRssMb} MiB` : ''}`,
    );
    console.log(JSON.stringify(out));
    const file = opt('json');
    if (file) fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  } finally {
    if (sampler) clearInterval(sampler);
    if (server && copy) await stopServer({ child: server.child, copy });
  }
}
