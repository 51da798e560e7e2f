import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { jobOutcomes } from '../db/jobs.ts';
import { getRun, interruptedRuns, markRunInterrupted, type RunTrigger, type StageState, saveJobState } from '../db/ingest-runs.ts';
import { getRetrievalService } from '../serving/app-service.ts';
import type { RetrievalService } from '../serving/retrieval-service.ts';
import { warmPaperCaches } from '../retrieval/paper-caches.ts';
import { englishWords } from '../retrieval/english-dictionary.ts';
import { tagger } from '../retrieval/tagger.ts';
import { createIngestJob, type IngestOptions, type IngestReport, resumeIngest, runStoredIngest, STAGE_WORDS } from './import-job.ts';
import { defineJob, startJob } from '../queue/queue.ts';
import { startMetadataJob } from './metadata.ts';
import { startEntityLinkJob } from './entity-links.ts';
import { setWarmingIndexes } from './warming.ts';
import { queueRecordIndexIfMissing } from '../serving/record-shards.ts';
import { CATALOGUE_VERSION, catalogueRecords } from '../synthesis/catalogue.ts';
import { hasUncataloguedRecords } from '../db/records.ts';

/**
 * The app's retrieval indexes for the new corpus version, built as the last stage of a job and when the server
 * starts on a corpus: the paragraph index, the record and graph indexes it otherwise builds on the first question
 * that needs them (seconds each), and what abstention reads of each paper.
 */
export async function warmIndexes(service: Pick<RetrievalService, 'workers' | 'whenServing' | 'index'>, { records = true } = {}): Promise<void> {
  // Retrieval workers read and warm their own copy (this thread builds one only when none is stored, and lets go of it
  // once they serve). While the model still embeds the corpus no copy is stored and this thread serves its own: it is
  // warmed here like a server's without workers (its graph index was otherwise made by the first graph question, which
  // then ended in 503 "still being built").
  if (service.workers() && (await service.whenServing())) return;
  const index = await service.index();
  // In the order questions need them: the default pipeline (hybrid) reads the graph; only the records pipeline the records.
  await index.graph.get();
  await englishWords();
  // The part-of-speech tagger the word checks use (0.25 s to load, else on the first question that needs it).
  tagger();
  await warmPaperCaches(index);
  if (records) await index.records.get();
}

const warmIndex =
  (db: Database, cfg: AssayConfig, opts: { records?: boolean } = {}) =>
  () =>
    warmIndexes(getRetrievalService(db, cfg), opts);

/**
 * On a server start with a corpus: the indexes are read back (or built) in the background at once, so the first
 * question does not wait for them. Not the records index: only the records pipeline reads it, and building it is the
 * longest of them (a core for seconds at the shared corpus, minutes at ten times it); its first question builds it
 * into its file in the data folder, which every later start opens (record-file.ts).
 */
export function warmOnStart(db: Database, cfg: AssayConfig): Promise<void> {
  const t0 = performance.now();
  setWarmingIndexes(true);
  return catalogueOnStart(db)
    .then(() => warmIndex(db, cfg, { records: false })())
    .then(() => getRetrievalService(db, cfg).whenServing())
    .then(
      () => console.log(`[assay] retrieval indexes ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`),
      (error) => console.error(`[assay] retrieval indexes not built at start (${(error as Error).message}); the first question builds them`),
    )
    .finally(() => {
      setWarmingIndexes(false);
      // After an upgrade the records index of the corpus is not kept for the new code: its stage is queued now, once
      // the search indexes are ready, rather than left to the first records question (one process, minutes at ×10).
      void queueRecordIndexIfMissing(db, cfg).then(
        (queued) => queued && console.log('[assay] no records index is kept for this corpus and code: it is written in the background'),
        (error) => console.error(`[assay] records index not queued (${(error as Error).message}); the first records question builds it`),
      );
    });
}

/** Records imported before the recipe catalogue (or by an older version of it) are catalogued once, at start. */
async function catalogueOnStart(db: Database): Promise<void> {
  try {
    if (!(await hasUncataloguedRecords(db.prisma, CATALOGUE_VERSION))) return;
    const { records, seconds } = await catalogueRecords(db);
    console.log(`[assay] recipe catalogue: ${records} records catalogued in ${seconds.toFixed(1)} s`);
  } catch (error) {
    console.error(`[assay] recipe catalogue not completed (${(error as Error).message}); synthesis questions read the records catalogued so far`);
  }
}

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

/** Whether an interrupted run continues without being asked: the first-start import, or one whose files were all read. */
function resumesByItself(run: { trigger: string; stages: unknown }): boolean {
  const stages = (Array.isArray(run.stages) ? run.stages : []) as unknown as StageState[];
  const importDone = stages.some((s) => s.name === 'import' && s.status === 'done');
  const laterPending = stages.some((s) => s.name !== 'import' && s.status === 'pending');
  return run.trigger === 'startup' || (importDone && laterPending);
}

/** A run its process left in the middle: interrupted, and the stage it was in is pending again. */
async function settleInterrupted(db: Database, run: { id: string; status: string; stages: unknown }) {
  const stages = (Array.isArray(run.stages) ? run.stages : []) as unknown as StageState[];
  if (stages.some((s) => s.status === 'running')) {
    for (const s of stages) if (s.status === 'running') s.status = 'pending';
    await saveJobState(db.prisma, run.id, stages);
  }
  if (run.status === 'running' || run.status === 'queued') await markRunInterrupted(db.prisma, run.id);
}

/**
 * The import job, under its run's id: a queued run is run from what its row stores (paths, display names, stage
 * switches); an interrupted one is resumed when the user asked (`resume`) or when it resumes by itself (see
 * `resumesByItself`; an upload stopped while reading its files waits for Resume on /import). A second attempt finds
 * the run its dead process left running and treats it as interrupted. The server log follows every stage.
 */
export const importJob = defineJob<{ runId: string; resume?: boolean }>('import', async ({ db, cfg, signal, attempt }, { runId, resume }) => {
  let run = await getRun(db.prisma, runId, 0);
  if (!run) return;
  const label = `${run.trigger}: ${run.inputs.slice(0, 3).join(', ')}${run.inputs.length > 3 ? ' …' : ''}`;
  const log = logged(runId, label);
  // Not the records index: the records stage after the index stage writes it as parts, which the first records
  // question opens (a second at ten times the shared corpus), so lexical search does not wait for it.
  const hooks = { signal, warmIndex: warmIndex(db, cfg, { records: false }), onStage: log.onStage };
  if (run.status === 'queued' && attempt === 1) {
    log.finished(await runStoredIngest(db, cfg, runId, hooks));
    return enrichAfterImport(db, cfg);
  }
  if (run.status === 'running' || run.status === 'queued') {
    await settleInterrupted(db, run);
    run = (await getRun(db.prisma, runId, 0)) ?? run;
  }
  if (run.status === 'interrupted' && (resume || resumesByItself(run))) {
    log.finished(await resumeIngest(db, cfg, runId, hooks));
    await enrichAfterImport(db, cfg);
  }
});

/**
 * After an import, the papers' metadata and the graph's entity links are fetched by jobs of their own
 * (lib/jobs/metadata.ts, lib/jobs/entity-links.ts), later in the queue: the import never waits on the network. Off with ASSAY_ENRICHMENT=off; a failure to queue it is only logged.
 */
async function enrichAfterImport(db: Database, cfg: AssayConfig): Promise<void> {
  if (cfg.scholarly.enrichment !== 'on') return;
  await startMetadataJob(db, cfg).catch((error) => console.log(`[assay] paper metadata not queued: ${(error as Error).message}`));
  await startEntityLinkJob(db, cfg).catch((error) => console.log(`[assay] entity links not queued: ${(error as Error).message}`));
}

/**
 * Import jobs started by the web app run after the request returns, in whichever app process takes them; the run
 * row is created first (with everything the job needs to run) so the client can follow it. On shutdown every job
 * is told to stop after its current paper (or batch), stores the stage it was in, and goes back to the queue.
 */
export async function startBackgroundIngest(
  db: Database,
  cfg: AssayConfig,
  inputs: string[],
  trigger: RunTrigger,
  options: Omit<IngestOptions, 'trigger' | 'runId' | 'signal' | 'warmIndex'> & { shownInputs?: string[] } = {},
): Promise<string> {
  const shown = options.shownInputs ?? inputs;
  const label = `${trigger}: ${shown.slice(0, 3).join(', ')}${shown.length > 3 ? ' …' : ''}`;
  return startJob(
    db,
    cfg,
    importJob,
    { label },
    // The records and index stages are part of every app job (the process that runs it builds its index for the new
    // corpus; the records index is written as shards any worker takes).
    () => createIngestJob(db, inputs, { ...options, trigger, recordsIndex: true, warmIndex: warmIndex(db, cfg) }),
    (runId) => ({ runId }),
  );
}

/** Resumes an interrupted import job in the background; false when the run is not interrupted. */
export async function resumeInBackground(db: Database, cfg: AssayConfig, runId: string): Promise<boolean> {
  const run = await getRun(db.prisma, runId, 0);
  if (run?.status !== 'interrupted') return false;
  await startJob(
    db,
    cfg,
    importJob,
    { label: `resume ${runId}` },
    () => runId,
    () => ({ runId, resume: true }),
  );
  return true;
}

/**
 * Runs as a client follows them: an interrupted run whose job is in the queue (its Resume accepted, or its restart
 * not yet looked at) is shown queued. Its row says interrupted until the job begins, and a page that read
 * "interrupted" just after its Resume was accepted stopped following a run that then completed.
 */
export async function runsAsFollowed<R extends { id: string; status: string }>(db: Database, runs: R[]): Promise<R[]> {
  const interrupted = runs.filter((r) => r.status === 'interrupted').map((r) => r.id);
  if (!interrupted.length) return runs;
  const inQueue = new Set((await jobOutcomes(db, interrupted)).filter((j) => j.state === 'queued' || j.state === 'running').map((j) => j.id));
  return runs.map((r) => (inQueue.has(r.id) ? { ...r, status: 'queued' } : r));
}

/**
 * On start: resume what a stop left unfinished without being asked (see `resumesByItself`), for runs whose job is
 * not in the queue already (imports run by the CLI, runs from before the queue was kept in the database).
 */
export async function resumeOnStart(db: Database, cfg: AssayConfig, liveJobIds: string[] = []): Promise<string[]> {
  const resumed: string[] = [];
  const live = new Set(liveJobIds);
  for (const run of await interruptedRuns(db.prisma)) {
    if (live.has(run.id)) continue;
    await settleInterrupted(db, run);
    if (resumesByItself(run) && (await resumeInBackground(db, cfg, run.id))) resumed.push(run.id);
  }
  return resumed;
}
