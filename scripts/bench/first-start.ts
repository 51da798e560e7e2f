import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile } from '../../lib/evaluation/retrieval-metrics.ts';
import { startBuiltApp } from '../test-support/built-app.ts';
import { sharedDataDir } from '../../lib/common/shared-data.ts';
import { cliOptions } from '../../lib/cli/options.ts';
import { rssMb } from './load.ts';

/**
 * `npm run bench -- first-start`: what a newcomer meets. Starts the production build on an empty data folder with
 * ASSAY_CORPUS set (the shared corpus and records unless `--corpus` names others), so the server imports it in the
 * background, and meanwhile asks for `/`, `/api/health` and `/api/import/status` one after another, four times a
 * second, until the import has ended. Prints the time to the first page, the import's time, the pages' latency
 * (p50 / p95 / max, overall and per import stage), then the first question's time after the import (the indexes
 * the import warmed should make it quick). Then, while the local model embeds the corpus in the background (unless
 * `--model-minutes 0`), the same pages, until semantic search is complete and 30 s past the swap of the model's vectors.
 * Throughout, a visitor (`--visitors N`: N of them) asks a question every 2 s (`/api/retrieve`, hybrid) and the server's RSS (its process and
 * children) is sampled every 200 ms: each is reported per phase (import stages, embedding, swap, after). `--json`
 * writes the figures.
 */
export const firstStartUsage = `npm run bench -- first-start [--corpus <path${path.delimiter}path>] [--port 3999] [--model-minutes 60] [--visitors 1] [--json out.json]`;

interface Sample {
  route: string;
  stage: string;
  ms: number;
  ok: boolean;
}

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; ok: boolean; body: string }> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    const body = await res.text();
    return { ms: performance.now() - t0, ok: res.ok, body };
  } catch {
    return { ms: performance.now() - t0, ok: false, body: '' };
  }
}

/** An error's message, or a retrieval's three slowest trace steps. */
function whatItSaid(body: string): string {
  try {
    const r = JSON.parse(body) as { error?: string; result?: { trace?: { step: string; ms: number }[] } };
    if (r.error) return r.error;
    const steps = [...(r.result?.trace ?? [])].sort((a, b) => b.ms - a.ms).slice(0, 3);
    return steps.map((t) => `${t.step} ${Math.round(t.ms)} ms`).join(', ');
  } catch {
    return body.slice(0, 120);
  }
}

const stat = (xs: number[]) => ({
  n: xs.length,
  p50: Math.round(percentile(xs, 50)),
  p95: Math.round(percentile(xs, 95)),
  max: Math.round(Math.max(0, ...xs)),
});

export async function benchFirstStart(args: string[]): Promise<void> {
  const opt = cliOptions(args, ['corpus', 'port', 'json', 'model-minutes', 'visitors']);
  const modelMinutes = Number(opt('model-minutes') ?? 60);
  const visitorCount = Math.max(1, Number(opt('visitors') ?? 1));
  const root = path.resolve(import.meta.dirname, '..', '..');
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) throw new Error('no production build: run `npm run build` (or `npm start` once) first');
  const shared = sharedDataDir();
  const corpus = opt('corpus') ?? (shared ? [path.join(shared, 'corpus'), path.join(shared, 'records')].join(path.delimiter) : undefined);
  if (!corpus) throw new Error('give --corpus <paths> (../shared/data is absent)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-first-start-'));
  const port = opt('port') ?? '3999';
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const log: string[] = [];
  // Its visitor asks as an anonymous visitor on loopback, as many questions as the run lasts: past one visitor's quota.
  const child = startBuiltApp(
    port,
    { ASSAY_DATA_DIR: dataDir, ASSAY_CORPUS: corpus, ASSAY_REFORMULATION: 'rules', ASSAY_ANONYMOUS_ANSWERS_PER_HOUR: '100000' },
    { detached: false, stdio: 'pipe' },
  );
  child.stdout?.on('data', (d) => log.push(String(d)));
  child.stderr?.on('data', (d) => log.push(String(d)));
  try {
    let firstPage = 0;
    for (let i = 0; i < 600 && !firstPage; i++) {
      if ((await timed(`${base}/`)).ok) firstPage = (performance.now() - t0) / 1000;
      else await new Promise((r) => setTimeout(r, 200));
    }
    if (!firstPage) throw new Error('the server did not serve / within two minutes');

    const samples: Sample[] = [];
    let stage = 'starting';
    // The server's memory and a visitor's questions, labelled with the phase they fall in, the whole run long.
    const rss: { stage: string; mb: number }[] = [];
    const sampler = setInterval(() => {
      const mb = child.pid ? rssMb(child.pid) : null;
      if (mb) rss.push({ stage, mb });
    }, 200);
    const visits: Sample[] = [];
    const slowVisits: { stage: string; ms: number; said: string }[] = [];
    let visiting = true;
    const VISITOR = [
      'What is the ionic conductivity of YSZ at 800 °C?',
      'How is LiFePO4 made by sol-gel?',
      'What is the band gap of anatase TiO2?',
      'Which dopant raises the proton conductivity of barium zirconate?',
      'What capacity does a LiNi0.8Co0.1Mn0.1O2 cathode retain after 100 cycles?',
    ];
    const visitor = async (v: number) => {
      for (let i = v; visiting; i++) {
        const at = stage;
        const r = await timed(`${base}/api/retrieve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: VISITOR[i % VISITOR.length], pipeline: 'hybrid' }),
        });
        visits.push({ route: 'visitor', stage: at, ms: r.ms, ok: r.ok });
        // A failed or slow question: what it was told, or where its time went (the trace's slowest steps).
        if (!r.ok || r.ms > 2_000) slowVisits.push({ stage: at, ms: Math.round(r.ms), said: whatItSaid(r.body) });
        await new Promise((res) => setTimeout(res, 2_000));
      }
    };
    // Each visitor asks every 2 s, starting at its own question (several browsers' worth of questions at once).
    const visitors = Promise.all(Array.from({ length: visitorCount }, (_, v) => visitor(v)));
    let seenImport = false;
    const importStart = performance.now();
    const deadline = Date.now() + 20 * 60_000;
    while (Date.now() < deadline) {
      const loop = performance.now();
      const status = await timed(`${base}/api/import/status`);
      samples.push({ route: '/api/import/status', stage, ms: status.ms, ok: status.ok });
      // A server without the status route (an older build, to compare with) is followed by its log instead.
      const imports = status.ok ? (JSON.parse(status.body).imports as { stage: string | null }[]) : [];
      const ended = log.join('').includes(') finished in ');
      if (imports.length) {
        seenImport = true;
        stage = imports[0].stage ?? 'finishing';
      } else if (!status.ok && !ended) stage = 'importing (no status route)';
      else if (seenImport || ended || performance.now() - importStart > 30_000) break;
      for (const route of ['/', '/api/health']) {
        const r = await timed(`${base}${route}`);
        samples.push({ route, stage, ms: r.ms, ok: r.ok });
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 250 - (performance.now() - loop))));
    }
    const importSeconds = (performance.now() - importStart) / 1000;

    // The first question after the import: the paragraph, record and graph indexes should all be warm.
    const questions = [
      { question: 'What is the superconducting transition temperature of MgB2?', pipeline: 'hybrid' },
      { question: 'What is the superconducting transition temperature of MgB2?', pipeline: 'graph' },
      { question: 'Which precursors are used for the solid-state synthesis of LiFePO4?', pipeline: 'records' },
    ];
    const firstQuestions = [];
    for (const q of questions) {
      const r = await timed(`${base}/api/retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(q) });
      firstQuestions.push({ pipeline: q.pipeline, ms: Math.round(r.ms), ok: r.ok });
    }

    // The model's background pass: until semantic search is complete, then 30 s past the swap.
    const modelStart = performance.now();
    let swappedAt: number | null = null;
    while (modelMinutes > 0 && performance.now() - modelStart < modelMinutes * 60_000) {
      const loop = performance.now();
      const h = await timed(`${base}/api/health`);
      samples.push({ route: '/api/health', stage, ms: h.ms, ok: h.ok });
      const progress = h.ok ? (JSON.parse(h.body) as { semanticSearch?: { percent?: number } | null }).semanticSearch : undefined;
      if (swappedAt === null && h.ok && progress === null && stage.startsWith('embedding')) {
        swappedAt = performance.now();
        stage = 'swap (30 s)';
      } else if (swappedAt === null && progress) stage = 'embedding';
      else if (swappedAt === null && h.ok && progress === null && performance.now() - modelStart > 30_000) break; // no model
      if (swappedAt !== null && performance.now() - swappedAt > 30_000) break;
      const page = await timed(`${base}/`);
      samples.push({ route: '/', stage, ms: page.ms, ok: page.ok });
      await new Promise((r) => setTimeout(r, Math.max(0, 250 - (performance.now() - loop))));
    }
    const modelSeconds = Math.round((performance.now() - modelStart) / 1000);
    stage = 'after';
    visiting = false;
    await visitors;
    clearInterval(sampler);

    const routes = ['/', '/api/health', '/api/import/status'];
    const byRoute = Object.fromEntries(routes.map((r) => [r, stat(samples.filter((s) => s.route === r).map((s) => s.ms))]));
    const stages = [...new Set(samples.map((s) => s.stage))];
    const byStage = Object.fromEntries(
      stages.map((st) => [st, stat(samples.filter((s) => s.stage === st && s.route !== '/api/import/status').map((s) => s.ms))]),
    );
    const phases = [...new Set([...rss.map((r) => r.stage), ...visits.map((v) => v.stage)])];
    const perPhase = Object.fromEntries(
      phases.map((ph) => {
        const mine = visits.filter((v) => v.stage === ph);
        const health = samples.filter((x) => x.stage === ph && x.route === '/api/health').map((x) => x.ms);
        return [
          ph,
          {
            peakRssMb: Math.round(Math.max(0, ...rss.filter((r) => r.stage === ph).map((r) => r.mb))),
            healthMaxMs: Math.round(Math.max(0, ...health)),
            visitor: { ...stat(mine.map((v) => v.ms)), failed: mine.filter((v) => !v.ok).length },
          },
        ];
      }),
    );
    const out = {
      firstPageSeconds: Math.round(firstPage * 10) / 10,
      importSeconds: Math.round(importSeconds),
      modelSeconds,
      peakRssMb: Math.round(Math.max(0, ...rss.map((r) => r.mb))),
      perPhase,
      slowVisits,
      errors: samples.filter((s) => !s.ok).length,
      routes: byRoute,
      stages: byStage,
      firstQuestions,
      importLogged: log
        .join('')
        .split('\n')
        .filter((l) => /\[assay\] import/.test(l)),
    };
    console.log(`first page after ${out.firstPageSeconds} s; import ran ${out.importSeconds} s; ${out.errors} failed requests of ${samples.length}`);
    for (const [route, s] of Object.entries(byRoute)) console.log(`  ${route.padEnd(20)} n ${s.n}  p50 ${s.p50} ms  p95 ${s.p95} ms  max ${s.max} ms`);
    console.log('pages (/ and /api/health) by import stage:');
    for (const [st, s] of Object.entries(byStage)) console.log(`  ${st.padEnd(36)} n ${s.n}  p50 ${s.p50} ms  p95 ${s.p95} ms  max ${s.max} ms`);
    console.log(`peak RSS ${out.peakRssMb} MiB; the model's pass ${modelSeconds} s. Per phase: peak RSS, /api/health max, a visitor's question (every 2 s):`);
    for (const [ph, x] of Object.entries(perPhase))
      console.log(
        `  ${ph.padEnd(36)} RSS ${String(x.peakRssMb).padStart(5)} MiB  health max ${x.healthMaxMs} ms  visitor n ${x.visitor.n} p50 ${x.visitor.p50} p95 ${x.visitor.p95} max ${x.visitor.max} ms, ${x.visitor.failed} failed`,
      );
    for (const v of slowVisits) console.log(`  the visitor waited ${v.ms} ms (${v.stage}): ${v.said}`);
    console.log('first questions after the import:');
    for (const q of firstQuestions) console.log(`  ${q.pipeline.padEnd(8)} ${q.ok ? `${q.ms} ms` : `failed after ${q.ms} ms`}`);
    console.log('server log:');
    for (const l of out.importLogged) console.log(`  ${l.trim()}`);
    const json = opt('json');
    if (json) fs.writeFileSync(json, `${JSON.stringify(out, null, 2)}\n`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 2000));
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
