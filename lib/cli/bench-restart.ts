import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readConfig } from '../config.ts';
import { cliOptions } from './options.ts';
import { ask, copyDataDir, rssMb, startServerOn } from './bench-load.ts';

/**
 * `npm run bench -- restart`: how soon a production server answers after a restart. On a copy of the configured data
 * folder it starts the server twice: the first start has no stored index (it builds it, as after an import or an
 * upgrade, and keeps it in the data folder); the second is the restart, which reads it back. Each start prints when
 * /api/health first answered, when the first question was answered (asked at once, so it waits for whatever the
 * start still does), that question's own latency, and the server's resident memory once its indexes are warm.
 */
export const restartUsage = `npm run bench -- restart [--question "…"] [--pipeline hybrid] [--json out.json]`;

interface StartFigures {
  healthSeconds: number;
  firstAnswerSeconds: number;
  firstQuestionMs: number;
  warmRssMb: number | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function oneStart(dataDir: string, question: string, pipeline: string, kept: () => boolean): Promise<StartFigures> {
  const t0 = performance.now();
  const { base, child } = await startServerOn(dataDir);
  const healthSeconds = (performance.now() - t0) / 1000;
  try {
    const first = await ask(base, question, pipeline);
    if (!first.ok) throw new Error('the first question was not answered');
    const answered = performance.now();
    // The server keeps its indexes in the background after its first build: wait for them (and for the warm-up).
    for (let i = 0; i < 600 && !kept(); i++) await sleep(500);
    await sleep(3000);
    return {
      healthSeconds,
      firstAnswerSeconds: (answered - t0) / 1000,
      firstQuestionMs: first.ms,
      warmRssMb: child.pid ? rssMb(child.pid) : null,
    };
  } finally {
    await stop(child);
  }
}

export async function benchRestart(args: string[]): Promise<void> {
  const opt = cliOptions(args, ['question', 'pipeline', 'json']);
  const question = opt('question') ?? 'Which paper reports the area-specific resistance of an LSCF cathode at 600 °C?';
  const pipeline = opt('pipeline') ?? 'hybrid';
  const copy = copyDataDir(readConfig().dataDir);
  // A stored index is what this bench measures the absence and the use of: the copy starts without one.
  fs.rmSync(path.join(copy, 'index'), { recursive: true, force: true });
  const kept = () => {
    const dir = path.join(copy, 'index');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    return files.some((f) => f.startsWith('retrieval-') && f.endsWith('.v8')) && files.some((f) => f.startsWith('graph-') && f.endsWith('.v8'));
  };
  try {
    const first = await oneStart(copy, question, pipeline, kept);
    const restart = await oneStart(copy, question, pipeline, kept);
    const row = (name: string, f: StartFigures) =>
      console.log(
        `${name.padEnd(26)} health after ${f.healthSeconds.toFixed(1)} s; first ${pipeline} question answered ${f.firstAnswerSeconds.toFixed(1)} s after the start (its latency ${(f.firstQuestionMs / 1000).toFixed(2)} s); RSS once warm ${f.warmRssMb === null ? '–' : `${Math.round(f.warmRssMb)} MiB`}`,
      );
    row('start without a stored index', first);
    row('restart (index read back)', restart);
    const json = opt('json');
    if (json) fs.writeFileSync(json, `${JSON.stringify({ pipeline, question, first, restart }, null, 2)}\n`);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}
