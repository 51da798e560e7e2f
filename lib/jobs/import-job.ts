import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import {
  claimForResume,
  clearRunErrors,
  createRun,
  finishRun,
  getRun,
  type IngestErrorEntry,
  type RunCounters,
  type RunStatus,
  type RunTrigger,
  type StageName,
  type StageState,
  type StoredJobOptions,
  saveJobState,
  updateRunProgress,
} from '../db/ingest-runs.ts';
import { corpusCounts } from '../db/corpus-counts.ts';
import { buildGraphInShards } from '../graph/shards.ts';
import { canonicalizeWithConfiguredEmbedder } from '../graph/canonicalize.ts';
import { emptyCounters, type ImportStageOptions, type IngestProgress, importFiles } from '../ingest/pipeline.ts';
import { structureInShards } from '../structurers/shards.ts';
import { configuredExtractor } from '../structurers/select.ts';
import { describeStructurer } from '../common/structurers.ts';
import { buildRecordIndexInShards } from '../serving/record-shards.ts';
import { catalogueRecords } from '../synthesis/catalogue.ts';

/**
 * The import job: import → structure → graph, one job at a time per process. Its run row stores every stage's
 * state as it changes (and what a later stage needs from an earlier one), so a job that a stop interrupts is
 * completed by `resumeIngest` from the stage it was in: the import stage reads its files again (stored papers
 * and records are recognised and skipped), the other stages are incremental. In the app a fourth stage builds the
 * retrieval index of the new corpus version; the app's jobs and the CLI's end with a stage that writes the records
 * index into the data folder. Elsewhere the indexes are built by the first question that needs them.
 */
export interface IngestOptions extends ImportStageOptions {
  trigger: RunTrigger;
  /** A run created beforehand (the upload route returns its id before the work starts). */
  runId?: string;
  /** Run the structuring stage on new or changed paragraphs after the import (default true). */
  structure?: boolean;
  /** Run the knowledge-graph stage after structuring (default true; needs structuring). */
  graph?: boolean;
  /**
   * Write the records index into the data folder after the graph, as shards any worker process takes
   * (lib/serving/record-shards.ts): the app's jobs and the CLI's import do. Without it there is no records stage, and
   * the first records question builds the index.
   */
  recordsIndex?: boolean;
  /**
   * Builds the retrieval index for the changed corpus (the app passes its retrieval service's), so that the
   * first question after an import does not wait for it. Without it there is no index stage.
   */
  warmIndex?: () => Promise<unknown>;
  /**
   * The corpus was changed outside the import stage (a restored paper version): structuring and the graph run even
   * when the import stage reads nothing.
   */
  changed?: boolean;
  /** Told when a stage starts and when it ends (with its outcome and seconds): the server log follows a job with it. */
  onStage?: (stage: StageState) => void;
}

export interface IngestReport {
  runId: string;
  status: RunStatus;
  /** Totals in the database after the run. */
  papers: number;
  paragraphs: number;
  records: number;
  /** Errors found by this run. */
  errors: number;
  /** Whole run and its parts (this attempt): reading + storing, structuring, graph. */
  seconds: number;
  ingestSeconds: number;
  structureSeconds: number;
  graphSeconds: number;
  /** The records index's stage (0 when it did not run). */
  recordsSeconds: number;
  counters: RunCounters;
  errorSamples: IngestErrorEntry[];
}

export type { IngestProgress };

/** What each stage does, as the server log and the import banner say it. */
export const STAGE_WORDS: Record<StageName, string> = {
  import: 'reading papers and records',
  structure: 'structuring paragraphs',
  graph: 'building the knowledge graph',
  records: 'writing the records index',
  index: 'preparing the search indexes',
};

/** The stages of a new import job; switched-off stages are stored as skipped. */
export function initialStages(options: Pick<IngestOptions, 'structure' | 'graph' | 'recordsIndex' | 'warmIndex'> = {}): StageState[] {
  const structure = options.structure !== false;
  return [
    { name: 'import', status: 'pending' },
    { name: 'structure', status: structure ? 'pending' : 'skipped' },
    { name: 'graph', status: structure && options.graph !== false ? 'pending' : 'skipped' },
    // The search index before the records index: questions are answered while the records stage runs.
    ...(options.warmIndex ? [{ name: 'index' as const, status: 'pending' as const }] : []),
    ...(options.recordsIndex ? [{ name: 'records' as const, status: 'pending' as const }] : []),
  ];
}

function storedOptions(options: ImportStageOptions): StoredJobOptions {
  return {
    ...(options.displayNames ? { displayNames: [...options.displayNames] } : {}),
    ...(options.source ? { source: options.source } : {}),
    ...(options.maxItemBytes ? { maxItemBytes: options.maxItemBytes } : {}),
    ...(options.recordBatchSize ? { recordBatchSize: options.recordBatchSize } : {}),
  };
}

/** Creates the run row of a new import job (queued), for callers that return its id before the work starts. */
export async function createIngestJob(db: Database, inputs: string[], options: IngestOptions & { shownInputs?: string[] }): Promise<string> {
  const shown = options.shownInputs ?? inputs.map((p) => options.displayNames?.get(p) ?? p);
  const run = await createRun(db.prisma, options.trigger, shown, 'queued', {
    stages: initialStages(options),
    options: { ...storedOptions(options), inputs, ...(options.changed ? { changed: true } : {}) },
  });
  return run.id;
}

/** Runs a new import job on `inputs` (or the one created beforehand as `options.runId`). */
export async function runIngest(db: Database, cfg: AssayConfig, inputs: string[], options: IngestOptions): Promise<IngestReport> {
  const runId = options.runId ?? (await createIngestJob(db, inputs, options));
  return runJob(db, cfg, runId, inputs, options);
}

/** Runs the queued import job `runId` from what its run row stores (the job queue's way to start it in any process). */
export async function runStoredIngest(
  db: Database,
  cfg: AssayConfig,
  runId: string,
  opts: Pick<IngestOptions, 'signal' | 'onProgress' | 'warmIndex' | 'onStage'> = {},
): Promise<IngestReport | null> {
  const run = await getRun(db.prisma, runId, 0);
  if (!run) return null;
  const { options, inputs } = storedJob(run, runId, opts);
  return runJob(db, cfg, runId, inputs, options);
}

/** A stored run's inputs and options, with the caller's hooks. */
function storedJob(
  run: NonNullable<Awaited<ReturnType<typeof getRun>>>,
  runId: string,
  opts: Pick<IngestOptions, 'signal' | 'onProgress' | 'warmIndex' | 'onStage'>,
) {
  const stored = (run.options ?? {}) as StoredJobOptions;
  const options: IngestOptions = {
    trigger: run.trigger as RunTrigger,
    runId,
    displayNames: stored.displayNames ? new Map(stored.displayNames) : undefined,
    source: stored.source,
    maxItemBytes: stored.maxItemBytes,
    recordBatchSize: stored.recordBatchSize,
    ...opts,
  };
  // Runs stored before jobs kept their inputs' paths show them as given.
  return { options, inputs: stored.inputs ?? run.inputs };
}

/**
 * Completes an interrupted import job from the stage it stopped in. Null when the run is not interrupted (it
 * finished, is running, or another caller resumed it first).
 */
export async function resumeIngest(
  db: Database,
  cfg: AssayConfig,
  runId: string,
  opts: Pick<IngestOptions, 'signal' | 'onProgress' | 'warmIndex' | 'onStage'> = {},
): Promise<IngestReport | null> {
  if (!(await claimForResume(db.prisma, runId))) return null;
  const run = await getRun(db.prisma, runId, 0);
  if (!run) return null;
  const { options, inputs } = storedJob(run, runId, opts);
  return runJob(db, cfg, runId, inputs, options);
}

async function runJob(db: Database, cfg: AssayConfig, runId: string, inputs: string[], options: IngestOptions): Promise<IngestReport> {
  const prisma = db.prisma;
  const started = performance.now();
  const run = await getRun(prisma, runId, 0);
  if (!run) throw new Error(`no import run ${runId}`);
  // Runs stored before jobs kept their stages have none: all three are to be done.
  const stages: StageState[] = Array.isArray(run.stages) && run.stages.length ? (run.stages as unknown as StageState[]) : initialStages(options);
  const stored: StoredJobOptions = { ...((run.options ?? {}) as StoredJobOptions) };
  const resumed = run.attempts > 1;
  // Counters of earlier attempts: the import stage starts over, so what they added shows up as unchanged now.
  const before: RunCounters = { ...emptyCounters(), ...pickCounters(run) };
  let counters: RunCounters = resumed ? before : emptyCounters();
  let samples: IngestErrorEntry[] = [];
  let status: RunStatus = 'succeeded';
  const messages: string[] = resumed ? [`resumed (attempt ${run.attempts})`] : [];
  const seconds: Partial<Record<StageName, number>> = {};

  await updateRunProgress(prisma, runId, { status: 'running' });
  // What a sharded stage says of its parts ("… 3 of 18 parts done"), shown as the run's current step.
  const showLine = (line: string) => updateRunProgress(prisma, runId, { currentFile: line }).then(() => {});
  for (const stage of stages) {
    if (stage.status === 'done' || stage.status === 'skipped') continue;
    if (options.signal?.aborted) {
      status = 'interrupted';
      break;
    }
    stage.status = 'running';
    await saveJobState(prisma, runId, stages);
    options.onStage?.({ ...stage });
    const t = performance.now();
    let outcome: 'done' | 'skipped' | 'interrupted' | 'failed' = 'done';
    if (stage.name === 'import') {
      if (resumed) await clearRunErrors(prisma, runId);
      const r = await importFiles(db, runId, inputs, {
        limits: cfg.documentLimits,
        pdfTables: cfg.pdfTables,
        paperBatchSize: cfg.importBatchPapers,
        ...options,
      });
      counters = resumed ? mergeCounters(before, r.counters) : r.counters;
      samples = r.errorSamples;
      stored.changed = !!stored.changed || r.changed || counters.papersAdded + counters.papersUpdated > 0;
      stored.gainedRecords = [...new Set([...(stored.gainedRecords ?? []), ...r.gainedRecords])];
      await updateRunProgress(prisma, runId, counters);
      if (r.message) messages.push(r.message);
      outcome = r.status === 'succeeded' ? 'done' : r.status;
      // The recipe catalogue synthesis questions are answered from is complete when the import is: no question builds
      // it. Stopped half-way, the structuring stage (or the next start) catalogues the rest.
      if (outcome === 'done') {
        await updateRunProgress(prisma, runId, { currentFile: 'cataloguing recipes' });
        await catalogueRecords(db, { signal: options.signal });
      }
    } else if (stage.name === 'records') {
      // Also when nothing changed: the index may not be kept for this corpus yet (new code); the stage sees when it is.
      await updateRunProgress(prisma, runId, { currentFile: 'writing the records index' });
      try {
        // As shards any worker process may take; this one writes those no other takes (lib/serving/record-shards.ts).
        const r = await buildRecordIndexInShards(db, cfg, {
          runId,
          signal: options.signal,
          onProgress: showLine,
        });
        if (r.failed.length)
          messages.push(`${r.failed.length} parts of the records index failed (${r.failed[0]}); the first records question builds it instead`);
      } catch (error) {
        // Not needed for the import to count: without it the first records question builds the index.
        messages.push(`the records index is built on the first records question instead (${(error as Error).message})`);
      }
      if (options.signal?.aborted) outcome = 'interrupted';
    } else if (!stored.changed) {
      outcome = 'skipped';
    } else if (stage.name === 'structure') {
      await catalogueRecords(db, { signal: options.signal });
      const structurer = configuredExtractor(db, cfg).extractor;
      await updateRunProgress(prisma, runId, { currentFile: `structuring new and changed paragraphs with ${describeStructurer(structurer.id)}` });
      try {
        // As shards any worker process may take; this one runs those no other takes (lib/structurers/shards.ts).
        const report = await structureInShards(db, cfg, {
          runId,
          alsoRebuild: stored.gainedRecords ?? [],
          signal: options.signal,
          onProgress: showLine,
        });
        // The import log says which structurer the papers went through (the paper page says it per paper).
        if (report.paragraphsStructured) messages.push(`${report.paragraphsStructured} paragraphs structured by ${describeStructurer(structurer.id)}`);
        if (report.failures)
          messages.push(`${report.failures} paragraphs could not be structured (${report.failureSamples[0]}); they are retried on the next run`);
        if (report.failedShards.length)
          messages.push(`${report.failedShards.length} structuring parts failed (${report.failedShards[0]}); they are retried on the next run`);
      } catch (error) {
        messages.push(`structuring failed: ${(error as Error).message} (run \`npm run structure\` to retry)`);
      }
      if (options.signal?.aborted) outcome = 'interrupted';
    } else if (stage.name === 'index') {
      if (options.warmIndex) {
        await updateRunProgress(prisma, runId, { currentFile: 'building the retrieval index' });
        // Not needed for the import to count: a failure only means the first question builds it.
        await options.warmIndex().catch((error) => messages.push(`the retrieval index is built on the first question instead (${(error as Error).message})`));
      } else outcome = 'skipped';
    } else {
      await updateRunProgress(prisma, runId, { currentFile: 'extracting knowledge-graph tuples' });
      try {
        // As shards any worker process may take; this one runs those no other takes (lib/graph/shards.ts).
        const graph = await buildGraphInShards(db, cfg, {
          runId,
          signal: options.signal,
          onProgress: showLine,
        });
        if (graph.failures.length)
          messages.push(`${graph.failures.length} papers could not be read for the graph (${graph.failures[0]}); they are retried on the next run`);
        if ((graph.tuplesWritten > 0 || graph.orphansRemoved.entities > 0) && !options.signal?.aborted) await canonicalizeWithConfiguredEmbedder(db, cfg);
      } catch (error) {
        messages.push(`graph extraction failed: ${(error as Error).message} (run \`npm run graph:build\` to retry)`);
      }
      if (options.signal?.aborted) outcome = 'interrupted';
    }
    seconds[stage.name] = (performance.now() - t) / 1000;
    stage.seconds = Math.round(((stage.seconds ?? 0) + (seconds[stage.name] ?? 0)) * 10) / 10;
    stage.status = outcome === 'interrupted' ? 'pending' : outcome;
    await saveJobState(prisma, runId, stages, stored);
    options.onStage?.({ ...stage, status: outcome === 'interrupted' ? 'pending' : outcome, seconds: Math.round((seconds[stage.name] ?? 0) * 10) / 10 });
    if (outcome === 'interrupted' || outcome === 'failed') {
      status = outcome;
      break;
    }
  }
  if (status === 'interrupted') messages.push('stopped before the end; resume it to complete (nothing is duplicated)');
  const total = (performance.now() - started) / 1000;
  // Kept for the corpus version the run leaves (corpus-counts.ts): the next health check and library page read them.
  const { papers, paragraphs, records } = await corpusCounts(db);
  const timings = { total, ingest: seconds.import ?? 0, structure: seconds.structure ?? 0, graph: seconds.graph ?? 0 };
  await finishRun(prisma, runId, status, { ...counters, currentFile: null }, timings, messages.join('; ') || null);
  options.onProgress?.({ ...counters, currentFile: null, runId, items: 0, elapsedSeconds: total });
  return {
    runId,
    status,
    papers,
    paragraphs,
    records,
    errors: counters.errorCount,
    seconds: total,
    ingestSeconds: seconds.import ?? 0,
    structureSeconds: seconds.structure ?? 0,
    graphSeconds: seconds.graph ?? 0,
    recordsSeconds: seconds.records ?? 0,
    counters,
    errorSamples: samples,
  };
}

const COUNTER_KEYS = [
  'filesTotal',
  'filesDone',
  'papersAdded',
  'papersUpdated',
  'papersUnchanged',
  'paragraphs',
  'recordsAdded',
  'recordsUnchanged',
  'errorCount',
] as const;

function pickCounters(row: Record<string, unknown>): Partial<RunCounters> {
  return Object.fromEntries(COUNTER_KEYS.map((k) => [k, Number(row[k] ?? 0)]));
}

/** Counters over all attempts: what an earlier attempt added, a later one finds unchanged. */
function mergeCounters(before: RunCounters, now: RunCounters): RunCounters {
  return {
    ...now,
    papersAdded: before.papersAdded + now.papersAdded,
    papersUpdated: before.papersUpdated + now.papersUpdated,
    papersUnchanged: Math.max(0, now.papersUnchanged - before.papersAdded - before.papersUpdated),
    paragraphs: before.paragraphs + now.paragraphs,
    recordsAdded: before.recordsAdded + now.recordsAdded,
    recordsUnchanged: Math.max(0, now.recordsUnchanged - before.recordsAdded),
  };
}
