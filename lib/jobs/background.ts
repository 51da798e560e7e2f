import { startJob } from '../common/background.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { getRun, interruptedRuns, type RunTrigger, type StageState, saveJobState } from '../db/ingest-runs.ts';
import { getRetrievalService } from '../pipelines/service.ts';
import { warmPaperCaches } from '../retrieval/abstention.ts';
import { createIngestJob, type IngestOptions, type IngestReport, resumeIngest, runIngest, STAGE_WORDS } from './import-job.ts';

/**
 * The app's retrieval indexes for the new corpus version, built as the last stage of a job and when the server
 * starts on a corpus: the paragraph index, the record and graph indexes it otherwise builds on the first question
 * that needs them (seconds each), and what abstention reads of each paper.
 */
const warmIndex =
  (db: Database, cfg: AssayConfig, { records = true } = {}) =>
  async () => {
    const index = await getRetrievalService(db, cfg).index();
    // In the order questions need them: the default pipeline (hybrid) reads the graph; only the records pipeline the records.
    await index.graph.get();
    await warmPaperCaches(index);
    if (records) await index.records.get();
  };

/**
 * On a server start with a corpus: the indexes are read back (or built) in the background at once, so the first
 * question does not wait for them. Not the records index: it holds more memory than all the others (about 300 MB
 * of heap for the shared corpus's 46,000 records) and only the records pipeline reads it; its first question builds it.
 */
export function warmOnStart(db: Database, cfg: AssayConfig): void {
  const t0 = performance.now();
  warming.__assayWarmingIndexes = true;
  warmIndex(db, cfg, { records: false })()
    .then(
      () => console.log(`[assay] retrieval indexes ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`),
      (error) => console.error(`[assay] retrieval indexes not built at start (${(error as Error).message}); the first question builds them`),
    )
    .finally(() => {
      warming.__assayWarmingIndexes = false;
    });
}

// On globalThis: Next.js loads the server start and the route handlers as separate module instances.
const warming = globalThis as unknown as { __assayWarmingIndexes?: boolean };

/** Whether the server is still reading or building its indexes after its start (`/api/health` says so). */
export const warmingIndexes = (): boolean => warming.__assayWarmingIndexes === true;

/** The server log's account of a job: each stage as it starts and ends, and the end with what the corpus holds. */
function logged(runId: string, label: string) {
  return {
    onStage: (s: StageState) =>
      console.log(
        `[assay] import ${runId} (${label}): ${STAGE_WORDS[s.name]} ${s.status === 'running' ? 'started' : `${s.status === 'pending' ? 'stopped' : s.status}${s.seconds !== undefined ? ` after ${s.seconds} s` : ''}`}`,
      ),
    finished: (r: IngestReport | null) =>
      r &&
      console.log(
        `[assay] import ${runId} (${label}) ${r.status === 'succeeded' ? 'finished' : r.status} in ${Math.round(r.seconds)} s: the library holds ${r.papers} papers, ${r.paragraphs} paragraphs and ${r.records} records${r.errors ? `; ${r.errors} errors (see /import)` : ''}`,
      ),
  };
}

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
    async (runId, signal) => {
      const log = logged(runId, label);
      log.finished(await runIngest(db, cfg, inputs, { ...job, runId, signal, onStage: log.onStage }));
    },
  );
}

/** Resumes an interrupted import job in the background; false when the run is not interrupted. */
export async function resumeInBackground(db: Database, cfg: AssayConfig, runId: string): Promise<boolean> {
  // One look-up of this run; resumeIngest's claim makes sure no two callers resume it.
  if ((await getRun(db.prisma, runId, 0))?.status !== 'interrupted') return false;
  await startJob(
    { kind: 'import', label: `resume ${runId}` },
    () => runId,
    async (_, signal) => {
      const log = logged(runId, 'resumed');
      log.finished(await resumeIngest(db, cfg, runId, { signal, warmIndex: warmIndex(db, cfg), onStage: log.onStage }));
    },
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
