import { startTracked } from '../common/background.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { interruptedRuns, type RunTrigger, type StageState } from '../db/ingest-runs.ts';
import { createIngestJob, type IngestOptions, resumeIngest, runIngest } from './import-job.ts';

/**
 * Import jobs started by the web app run in the server process after the request returns; the run row is
 * created first so the client can follow it. On shutdown every job is told to stop after its current paper
 * (or batch), and stores the stage it was in.
 */
export async function startBackgroundIngest(
  db: Database,
  cfg: AssayConfig,
  inputs: string[],
  trigger: RunTrigger,
  options: Omit<IngestOptions, 'trigger' | 'runId' | 'signal'> & { shownInputs?: string[] } = {},
): Promise<string> {
  const runId = await createIngestJob(db, inputs, { ...options, trigger });
  startTracked(runId, (signal) => runIngest(db, cfg, inputs, { ...options, trigger, runId, signal }));
  return runId;
}

/** Resumes an interrupted import job in the background; false when the run is not interrupted. */
export async function resumeInBackground(db: Database, cfg: AssayConfig, runId: string): Promise<boolean> {
  const run = (await interruptedRuns(db.prisma)).find((r) => r.id === runId);
  if (!run) return false;
  startTracked(runId, (signal) => resumeIngest(db, cfg, runId, { signal }));
  return true;
}

/**
 * On start: resume what a stop left unfinished without being asked. The first-start import of ASSAY_CORPUS is
 * resumed whole; any other import whose files were all read but whose structuring or graph stage never ran
 * gets those stages. An upload or CLI import stopped while reading its files waits for Resume on /import.
 */
export async function resumeOnStart(db: Database, cfg: AssayConfig): Promise<string[]> {
  const resumed: string[] = [];
  for (const run of await interruptedRuns(db.prisma)) {
    const stages = (Array.isArray(run.stages) ? run.stages : []) as unknown as StageState[];
    const importDone = stages.some((s) => s.name === 'import' && s.status === 'done');
    const laterPending = stages.some((s) => s.name !== 'import' && s.status === 'pending');
    if (run.trigger === 'startup' || (importDone && laterPending)) {
      if (await resumeInBackground(db, cfg, run.id)) resumed.push(run.id);
    }
  }
  return resumed;
}
