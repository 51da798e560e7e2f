import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readConfig } from '../../lib/config.ts';
import { loadQuestions } from '../../lib/evaluation/questions.ts';
import { cliOptions } from '../../lib/cli/options.ts';
import { ask, copyDataDir, rssMb, startServerOn, untilWarm } from './load.ts';

/**
 * `npm run bench -- restart`: how soon a production server answers after a restart. On a copy of the configured data
 * folder it starts the server twice: the first start has no stored index (it builds it, as after an import or an
 * upgrade, and keeps it in the data folder); the second is the restart, which reads it back. Each start prints when
 * /api/health first answered, when the first question was answered (asked at once, so it waits for whatever the
 * start still does), that question's own latency, the server's resident memory once its indexes and paper caches
 * are warm and after 30 more questions, and the most it held meanwhile.
 */
export const restartUsage = `npm run bench -- restart [--question "…"] [--pipeline hybrid] [--json out.json]`;

export interface StartFigures {
  healthSeconds: number;
  firstAnswerSeconds: number;
  firstQuestionMs: number;
  /** Once the start-up's indexes are kept and its paper caches warm. */
  warmRssMb: number | null;
  /** After `questions` more, asked one at a time once warm. */
  questions: { count: number; p50: number; p95: number; rssMb: number | null };
  /** The most the server held from its start to the end of the questions (sampled every 200 ms). */
  peakRssMb: number;
  /**
   * Then the records pipeline, asked the same questions (at most 10): the first one waits for the records index (built
   * into its file on a first start, opened on a restart), the others are timed; the resident memory after them and
   * the most held while they were answered.
   */
  records: { firstSeconds: number; p50: number; p95: number; rssMb: number | null; peakRssMb: number } | null;
}

export interface StartOptions {
  question: string;
  pipeline: string;
  /** Asked one at a time once the server is warm. */
  questions: string[];
  /** Overrides of the server's environment. */
  env?: Record<string, string>;
  /** False: no records questions after the others. */
  records?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stops a child process: SIGTERM, then SIGKILL if it has not ended within 15 s. */
export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;

async function oneStart(dataDir: string, o: StartOptions, kept: () => boolean): Promise<StartFigures> {
  const t0 = performance.now();
  const { base, child } = await startServerOn(dataDir, o.env);
  const healthSeconds = (performance.now() - t0) / 1000;
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, (child.pid && rssMb(child.pid)) || 0);
  };
  const sampler = setInterval(sample, 200);
  try {
    // Asked at once: a first start answers it once it has built its index (minutes at ten times the corpus).
    const first = await ask(base, o.question, o.pipeline, 30 * 60_000);
    if (!first.ok) throw new Error('the first question was not answered');
    const answered = performance.now();
    // The server keeps its indexes in the background after its first build: wait for them and for the warm-up.
    for (let i = 0; i < 1200 && !kept(); i++) await sleep(500);
    await untilWarm(base);
    await sleep(3000);
    const warmRssMb = child.pid ? rssMb(child.pid) : null;
    const ms: number[] = [];
    for (const q of o.questions) {
      const r = await ask(base, q, o.pipeline);
      if (!r.ok) throw new Error(`a question was not answered: ${q}`);
      ms.push(r.ms);
    }
    ms.sort((a, b) => a - b);
    sample();
    const peakRssMb = peak;
    const records =
      o.records === false
        ? null
        : await recordsQuestions(
            base,
            o.questions.slice(0, 10),
            () => (peak = 0),
            sample,
            () => peak,
            child,
          );
    return {
      healthSeconds,
      firstAnswerSeconds: (answered - t0) / 1000,
      firstQuestionMs: first.ms,
      warmRssMb,
      questions: { count: ms.length, p50: at(ms, 0.5), p95: at(ms, 0.95), rssMb: child.pid ? rssMb(child.pid) : null },
      peakRssMb,
      records,
    };
  } finally {
    clearInterval(sampler);
    await stopChild(child);
  }
}

async function recordsQuestions(
  base: string,
  questions: string[],
  resetPeak: () => void,
  sample: () => void,
  peak: () => number,
  child: ChildProcess,
): Promise<StartFigures['records']> {
  if (!questions.length) return null;
  resetPeak();
  sample();
  // The records index is built on the first records question; meanwhile the server answers 503 ("ask again in a
  // minute"): asked again every second until answered, the first answer's time counted from the first ask.
  const t0 = performance.now();
  let first = await ask(base, questions[0], 'records', 30 * 60_000);
  while (!first.ok && first.status === 503 && performance.now() - t0 < 30 * 60_000) {
    await new Promise((r) => setTimeout(r, 1000));
    first = await ask(base, questions[0], 'records', 30 * 60_000);
  }
  if (!first.ok) throw new Error(`the first records question was not answered (HTTP ${first.status})`);
  const firstMs = performance.now() - t0;
  const ms: number[] = [];
  for (const q of questions.slice(1)) {
    const r = await ask(base, q, 'records');
    if (!r.ok) throw new Error(`a records question was not answered: ${q}`);
    ms.push(r.ms);
  }
  ms.sort((a, b) => a - b);
  sample();
  return { firstSeconds: firstMs / 1000, p50: at(ms, 0.5), p95: at(ms, 0.95), rssMb: child.pid ? rssMb(child.pid) : null, peakRssMb: peak() };
}

/**
 * The production server started twice on `dataDir` (which it writes to): without a stored index, then again reading
 * back the one the first start kept.
 */
export async function serverStarts(dataDir: string, o: StartOptions): Promise<{ first: StartFigures; restart: StartFigures }> {
  // A stored index is what this measures the absence and the use of: the first start has none.
  fs.rmSync(path.join(dataDir, 'index'), { recursive: true, force: true });
  const kept = () => {
    const dir = path.join(dataDir, 'index');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    return files.some((f) => f.startsWith('retrieval-') && f.endsWith('.v8')) && files.some((f) => f.startsWith('graph-') && f.endsWith('.v8'));
  };
  const first = await oneStart(dataDir, o, kept);
  const restart = await oneStart(dataDir, o, kept);
  return { first, restart };
}

/** The questions asked once a start is warm: the first 30 of the project's own natural-wording dev set. */
export async function seriesQuestions(file = path.join(process.cwd(), 'eval', 'questions', 'natural.dev.jsonl')): Promise<string[]> {
  return (await loadQuestions(file, { limit: 30 })).map((q) => q.question);
}

const mib = (v: number | null) => (v === null ? '–' : `${Math.round(v)} MiB`);

/** One line per start of `serverStarts`. */
export function startLine(name: string, pipeline: string, f: StartFigures): string {
  return (
    `${name.padEnd(26)} health after ${f.healthSeconds.toFixed(1)} s; first ${pipeline} question answered ${f.firstAnswerSeconds.toFixed(1)} s after the start (its latency ${(f.firstQuestionMs / 1000).toFixed(2)} s); ` +
    `RSS once warm ${mib(f.warmRssMb)}, after ${f.questions.count} more questions (p50 ${f.questions.p50.toFixed(0)} / p95 ${f.questions.p95.toFixed(0)} ms) ${mib(f.questions.rssMb)}; peak ${mib(f.peakRssMb)}` +
    (f.records
      ? `; then records questions: the first answered in ${f.records.firstSeconds.toFixed(1)} s, the next p50 ${f.records.p50.toFixed(0)} / p95 ${f.records.p95.toFixed(0)} ms, RSS ${mib(f.records.rssMb)}, peak ${mib(f.records.peakRssMb)}`
      : '')
  );
}

export async function benchRestart(args: string[]): Promise<void> {
  const opt = cliOptions(args, ['question', 'pipeline', 'json']);
  const question = opt('question') ?? 'Which paper reports the area-specific resistance of an LSCF cathode at 600 °C?';
  const pipeline = opt('pipeline') ?? 'hybrid';
  const copy = copyDataDir(readConfig().dataDir);
  try {
    const { first, restart } = await serverStarts(copy, { question, pipeline, questions: await seriesQuestions() });
    console.log(startLine('start without a stored index', pipeline, first));
    console.log(startLine('restart (index read back)', pipeline, restart));
    const json = opt('json');
    if (json) fs.writeFileSync(json, `${JSON.stringify({ pipeline, question, first, restart }, null, 2)}\n`);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}
