import fs from 'node:fs';
import type { Database } from '../db/database.ts';
import { loadPaperIdentities, savePaper, countPapersAndParagraphs } from '../db/papers.ts';
import { saveRecordBatch, linkRecordsToPapers, countRecords } from '../db/records.ts';
import {
  addRunErrors,
  createRun,
  finishRun,
  updateRunProgress,
  type IngestErrorEntry,
  type RunCounters,
  type RunStatus,
  type RunTrigger,
} from '../db/ingest-runs.ts';
import { detectReader } from './detect.ts';
import { runStructuring } from '../structure/pipeline.ts';
import { configuredExtractor } from '../structure/select.ts';
import { buildGraph } from '../graph/build.ts';
import { canonicalizeWithConfiguredEmbedder } from '../graph/canonicalize.ts';
import { configuredTupleExtractor } from '../graph/select.ts';
import { config } from '../config.ts';
import { expandInputs } from './files.ts';
import { InputError, type ParsedRecord, type ReaderItem } from './types.ts';

export interface IngestOptions {
  trigger: RunTrigger;
  /** A run created beforehand (the upload route returns its id before the work starts). */
  runId?: string;
  /** Names to show instead of paths (uploads are stored under generated names). */
  displayNames?: Map<string, string>;
  /** Source label for papers whose reader has no better one (e.g. "Europe PMC" for downloaded JATS). */
  source?: string;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
  /** Run the structuring stage on new or changed paragraphs after the import (default true). */
  structure?: boolean;
  /** Run the knowledge-graph stage after structuring (default true; needs structuring). */
  graph?: boolean;
  /** Largest single JSON line / XML / PDF / text document accepted. */
  maxItemBytes?: number;
  recordBatchSize?: number;
}

export interface IngestProgress extends RunCounters {
  runId: string;
  items: number;
  elapsedSeconds: number;
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
  /** Whole run, and its parts: reading + storing, and the structuring stage. */
  seconds: number;
  ingestSeconds: number;
  structureSeconds: number;
  graphSeconds: number;
  counters: RunCounters;
  errorSamples: IngestErrorEntry[];
}

const ERRORS_STORED_PER_FILE = 1000;
const HEARTBEAT_MS = 1000;

// One ingest at a time per process: runs queue behind each other (kept on globalThis for Next.js dev reloads).
const lane = globalThis as unknown as { __assayIngestLane?: Promise<unknown> };

/**
 * Ingests files and folders into the database. Each paper is stored in its own transaction and each record
 * batch in one statement, so an ingest killed at any moment and re-run ends in the same database as an
 * uninterrupted one. Bad files and bad items become errors in the run report; the run goes on.
 */
export function runIngest(db: Database, inputs: string[], options: IngestOptions): Promise<IngestReport> {
  const previous = lane.__assayIngestLane ?? Promise.resolve();
  const next = previous.catch(() => {}).then(() => ingestNow(db, inputs, options));
  lane.__assayIngestLane = next.catch(() => {});
  return next;
}

async function ingestNow(db: Database, inputs: string[], options: IngestOptions): Promise<IngestReport> {
  const prisma = db.prisma;
  const started = performance.now();
  const shown = (p: string) => options.displayNames?.get(p) ?? p;
  const runId = options.runId ?? (await createRun(prisma, options.trigger, inputs.map(shown))).id;
  const counters: RunCounters = {
    filesTotal: 0,
    filesDone: 0,
    currentFile: null,
    papersAdded: 0,
    papersUpdated: 0,
    papersUnchanged: 0,
    paragraphs: 0,
    recordsAdded: 0,
    recordsUnchanged: 0,
    errorCount: 0,
  };
  const samples: IngestErrorEntry[] = [];
  let pendingErrors: IngestErrorEntry[] = [];
  let items = 0;
  let lastBeat = 0;
  let status: RunStatus = 'succeeded';
  let message: string | null = null;

  const progress = async (force = false) => {
    options.onProgress?.({ ...counters, runId, items, elapsedSeconds: (performance.now() - started) / 1000 });
    const now = Date.now();
    if (force || now - lastBeat >= HEARTBEAT_MS) {
      lastBeat = now;
      if (pendingErrors.length) {
        await addRunErrors(prisma, runId, pendingErrors);
        pendingErrors = [];
      }
      await updateRunProgress(prisma, runId, { ...counters, status: 'running' });
    }
  };

  try {
    await updateRunProgress(prisma, runId, { status: 'running' });
    const { files, missing } = await expandInputs(inputs);
    counters.filesTotal = files.length;
    const fileErrors = new Map<string, number>();
    const report = (file: string, location: string | null, reason: string) => {
      counters.errorCount++;
      const n = (fileErrors.get(file) ?? 0) + 1;
      fileErrors.set(file, n);
      const entry = { file: shown(file), location, reason: reason.slice(0, 2000) };
      if (samples.length < 50) samples.push(entry);
      if (n <= ERRORS_STORED_PER_FILE) pendingErrors.push(entry);
      else if (n === ERRORS_STORED_PER_FILE + 1) pendingErrors.push({ ...entry, location: null, reason: 'further errors in this file are counted but not listed' });
    };
    for (const m of missing) report(m, null, 'no such file or folder');

    const index = await loadPaperIdentities(prisma);
    const maxItemBytes = options.maxItemBytes ?? 64 * 1024 * 1024;
    const batchSize = options.recordBatchSize ?? 1000;
    let dbFailures = 0;

    for (const file of files) {
      if (options.signal?.aborted) break;
      counters.currentFile = shown(file);
      await progress(true);
      const detection = await detectReader(file, shown(file));
      if ('skip' in detection) {
        // Named explicitly, an unusable file is an error; met while walking a folder, it is just not ours.
        if (inputs.includes(file)) report(file, null, `not imported: ${detection.skip}`);
        counters.filesDone++;
        continue;
      }
      if ('error' in detection) {
        report(file, null, detection.error);
        counters.filesDone++;
        continue;
      }
      let batch: ParsedRecord[] = [];
      const flushRecords = async () => {
        if (!batch.length) return;
        const toSave = batch;
        batch = [];
        const res = await saveRecordBatch(db, toSave);
        counters.recordsAdded += res.added;
        counters.recordsUnchanged += res.unchanged;
      };
      try {
        const iterator: AsyncIterable<ReaderItem> = detection.reader.read({ path: file, displayName: shown(file), size: fs.statSync(file).size }, { maxItemBytes });
        for await (const item of iterator) {
          if (options.signal?.aborted) break;
          items++;
          if (item.type === 'error') {
            report(file, item.location, item.reason);
          } else if (item.type === 'record') {
            batch.push(item.record);
            if (batch.length >= batchSize) await flushRecords();
          } else {
            const paper = options.source && ['JATS', 'TEI', 'PDF', 'Text', 'Markdown'].includes(item.paper.source) ? { ...item.paper, source: options.source } : item.paper;
            try {
              const saved = await savePaper(prisma, index, paper);
              dbFailures = 0;
              if (saved.outcome === 'added') counters.papersAdded++;
              else if (saved.outcome === 'updated') counters.papersUpdated++;
              else counters.papersUnchanged++;
              counters.paragraphs += saved.paragraphs;
            } catch (error) {
              if (++dbFailures >= 5) throw error;
              report(file, item.location, `could not store the paper: ${(error as Error).message.split('\n').slice(-1)[0]}`);
            }
          }
          if (items % 25 === 0) await progress();
        }
        await flushRecords();
      } catch (error) {
        await flushRecords().catch(() => {});
        if (error instanceof InputError) report(file, error.location, error.message);
        else if (dbFailures >= 5) throw error;
        else report(file, null, `unexpected error: ${(error as Error).message}`);
      }
      counters.filesDone++;
    }
    if (options.signal?.aborted) {
      status = 'interrupted';
      message = 'stopped before the end; re-run the same import to complete it (nothing is duplicated)';
    }
  } catch (error) {
    status = 'failed';
    message = (error as Error).message;
  }

  const tLink = performance.now();
  const gainedRecords = status !== 'failed' ? await linkRecordsToPapers(prisma).catch(() => [] as string[]) : [];
  const linkSeconds = (performance.now() - tLink) / 1000;
  const ingestSeconds = (performance.now() - started) / 1000;
  // Enrichment stage: structure what this run added or changed (incremental, so a no-op re-run costs little).
  let structureSeconds = 0;
  const changed = counters.papersAdded + counters.papersUpdated + gainedRecords.length > 0;
  if (status !== 'failed' && options.structure !== false && changed) {
    const t = performance.now();
    try {
      await updateRunProgress(prisma, runId, { currentFile: 'structuring new and changed paragraphs' });
      const { extractor, concurrency } = configuredExtractor(db, config());
      const report = await runStructuring(db, { extractor, concurrency, signal: options.signal, alsoRebuild: gainedRecords });
      if (report.failures) message = `${message ? message + '; ' : ''}${report.failures} paragraphs could not be structured (${report.failureSamples[0]}); they are retried on the next run`;
    } catch (error) {
      message = `${message ? message + '; ' : ''}structuring failed: ${(error as Error).message} (run \`npm run structure\` to retry)`;
    }
    structureSeconds = (performance.now() - t) / 1000;
  }
  // Graph stage: tuples from the structured records of papers whose record changed (incremental likewise).
  let graphSeconds = 0;
  if (status !== 'failed' && options.structure !== false && options.graph !== false && changed) {
    const t = performance.now();
    try {
      await updateRunProgress(prisma, runId, { currentFile: 'extracting knowledge-graph tuples' });
      const graph = await buildGraph(db, { signal: options.signal, extractor: configuredTupleExtractor(db, config()) });
      if (graph.failures.length) message = `${message ? message + '; ' : ''}${graph.failures.length} papers could not be read for the graph (${graph.failures[0]}); they are retried on the next run`;
      if (graph.tuplesWritten > 0) await canonicalizeWithConfiguredEmbedder(db, config());
    } catch (error) {
      message = `${message ? message + '; ' : ''}graph extraction failed: ${(error as Error).message} (run \`npm run graph:build\` to retry)`;
    }
    graphSeconds = (performance.now() - t) / 1000;
  }
  if (pendingErrors.length) await addRunErrors(prisma, runId, pendingErrors).catch(() => {});
  const seconds = (performance.now() - started) / 1000;
  const [{ papers, paragraphs }, records] = await Promise.all([countPapersAndParagraphs(prisma), countRecords(prisma)]);
  await finishRun(prisma, runId, status, counters, { total: seconds, ingest: ingestSeconds, linkRecords: linkSeconds, structure: structureSeconds, graph: graphSeconds }, message);
  options.onProgress?.({ ...counters, currentFile: null, runId, items, elapsedSeconds: seconds });
  return { runId, status, papers, paragraphs, records, errors: counters.errorCount, seconds, ingestSeconds, structureSeconds, graphSeconds, counters, errorSamples: samples };
}

