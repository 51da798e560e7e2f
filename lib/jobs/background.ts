import { startJob } from '../common/background.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { getRun, interruptedRuns, type RunTrigger, type StageState, saveJobState } from '../db/ingest-runs.ts';
import { getRetrievalService } from '../pipelines/service.ts';
import { createIngestJob, type IngestOptions, resumeIngest, runIngest } from './import-job.ts';

/** The app's retrieval index for the new corpus version, built as the last stage of a job. */
const warmIndex = (db: Database, cfg: AssayConfig) => () => getRetrievalService(db, cfg).index();

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
  const job = { ...options, trigger, warmIndex: warmIndex(db, cfg) };
  const label = `${trigger}: ${(options.shownInputs ?? inputs).slice(0, 3).join(', ')}${(options.shownInputs ?? inputs).length > 3 ? ' …' : ''}`;
  return startJob(
    { kind: 'import', label },
    () => createIngestJob(db, inputs, job),
    (runId, signal) => runIngest(db, cfg, inputs, { ...job, runId, signal }),
  );
}

/** Resumes an interrupted import job in the background; false when the run is not interrupted. */
export async function resumeInBackground(db: Database, cfg: AssayConfig, runId: string): Promise<boolean> {
  // One look-up of this run; resumeIngest's claim makes sure no two callers resume it.
  if ((await getRun(db.prisma, runId, 0))?.status !== 'interrupted') return false;
  await startJob(
    { kind: 'import', label: `resume ${runId}` },
    () => runId,
    (_, signal) => resumeIngest(db, cfg, runId, { signal, warmIndex: warmIndex(db, cfg) }),
  );
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
    // A stage its process was in when it died did not finish: it is pending again.
    if (stages.some((s) => s.status === 'running')) {
      for (const s of stages) if (s.status === 'running') s.status = 'pending';
      await saveJobState(db.prisma, run.id, stages);
    }
    const importDone = stages.some((s) => s.name === 'import' && s.status === 'done');
    const laterPending = stages.some((s) => s.name !== 'import' && s.status === 'pending');
    if (run.trigger === 'startup' || (importDone && laterPending)) {
      if (await resumeInBackground(db, cfg, run.id)) resumed.push(run.id);
    }
  }
  return resumed;
}
