import type { Database } from '../db/database.ts';
import { createRun, type RunTrigger } from '../db/ingest-runs.ts';
import { runIngest, type IngestOptions } from './pipeline.ts';

/**
 * Imports started from the web app run in the server process after the request returns; the run row is created
 * first so the client can follow it. On shutdown every run is told to stop after its current paper.
 */
const registry = globalThis as unknown as { __assayRuns?: Map<string, AbortController> };
const running = () => (registry.__assayRuns ??= new Map());

export async function startBackgroundIngest(
  db: Database,
  inputs: string[],
  trigger: RunTrigger,
  options: Omit<IngestOptions, 'trigger' | 'runId' | 'signal'> & { shownInputs?: string[] } = {},
): Promise<string> {
  const run = await createRun(db.prisma, trigger, options.shownInputs ?? inputs, 'queued');
  startTracked(run.id, (signal) => runIngest(db, inputs, { ...options, trigger, runId: run.id, signal }));
  return run.id;
}

/** Runs `work` in the background under an abort signal that shutdown can trigger. */
export function startTracked(runId: string, work: (signal: AbortSignal) => Promise<unknown>) {
  const controller = new AbortController();
  running().set(runId, controller);
  work(controller.signal)
    .catch((error) => console.error(`[assay] background run ${runId} failed:`, error))
    .finally(() => running().delete(runId));
}

export function stopAllBackgroundIngests() {
  for (const c of running().values()) c.abort();
}

export function activeBackgroundIngests(): number {
  return running().size;
}
