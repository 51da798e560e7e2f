import fs from 'node:fs';
import type { Database } from '../db/database.ts';
import { addNewPapers, isNewPaper, loadPaperIdentities, paperIdentities, savePaper } from '../db/papers.ts';
import { saveRecordBatch, linkRecordsToPapers } from '../db/records.ts';
import { addRunErrors, updateRunProgress, type IngestErrorEntry, type RunCounters, type RunStatus } from '../db/ingest-runs.ts';
import { detectReader } from './detect.ts';
import { expandInputs } from './files.ts';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from '../common/document-limits.ts';
import { boundPaper } from './limits.ts';
import { InputError, type ParsedPaper, type ParsedRecord, type Reader, type ReaderItem } from './types.ts';
import { startedNow } from '../common/ahead.ts';
import { refreshStatistics } from '../db/statistics.ts';

/**
 * The import stage of an import job (lib/jobs/import-job.ts runs it, then structuring and the graph): reads
 * files and folders and stores papers and records. Each paper is stored in its own transaction and each record
 * batch in one statement, so an import killed at any moment and re-run ends in the same database as an
 * uninterrupted one. Bad files and bad items become errors in the run report; the run goes on.
 */
export interface ImportStageOptions {
  /** Names to show instead of paths (uploads are stored under generated names). */
  displayNames?: Map<string, string>;
  /** Source label for papers whose reader has no better one (e.g. "Europe PMC" for downloaded JATS). */
  source?: string;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
  /** Largest single JSON line / XML / PDF / text document accepted. */
  maxItemBytes?: number;
  /** What one paper may hold (long paragraphs are split, oversized papers refused); the defaults when absent. */
  limits?: DocumentLimits;
  recordBatchSize?: number;
  /** New papers added in one statement (default 50). */
  paperBatchSize?: number;
  /** ASSAY_PDF_TABLES: read PDF tables with Tabula. */
  pdfTables?: 'tabula' | 'off';
  /** The formats read: the registry's (readers/registry.ts) unless given (a test adds a format of its own). */
  readers?: readonly Reader[];
}

export interface IngestProgress extends RunCounters {
  runId: string;
  items: number;
  elapsedSeconds: number;
}

export interface ImportStageResult {
  status: Extract<RunStatus, 'succeeded' | 'failed' | 'interrupted'>;
  message: string | null;
  counters: RunCounters;
  errorSamples: IngestErrorEntry[];
  items: number;
  /** Papers that gained imported records by DOI in this stage (their records are rebuilt by structuring). */
  gainedRecords: string[];
  /** Whether anything was added or changed (the later stages have nothing to do otherwise). */
  changed: boolean;
  seconds: number;
  linkSeconds: number;
}

export const emptyCounters = (): RunCounters => ({
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
});

const ERRORS_STORED_PER_FILE = 1000;
/** New papers added in one statement (about 250 paragraphs with the shared corpus's papers). */
const PAPER_BATCH = 50;
const HEARTBEAT_MS = 1000;

export async function importFiles(db: Database, runId: string, inputs: string[], options: ImportStageOptions = {}): Promise<ImportStageResult> {
  const prisma = db.prisma;
  const started = performance.now();
  const shown = (p: string) => options.displayNames?.get(p) ?? p;
  const counters = emptyCounters();
  const samples: IngestErrorEntry[] = [];
  let pendingErrors: IngestErrorEntry[] = [];
  let items = 0;
  let lastBeat = 0;
  let status: ImportStageResult['status'] = 'succeeded';
  let message: string | null = null;
  // Papers another file replaced (their earlier versions are kept): said in the run's message, never silently.
  const replaced: string[] = [];

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
      else if (n === ERRORS_STORED_PER_FILE + 1)
        pendingErrors.push({ ...entry, location: null, reason: 'further errors in this file are counted but not listed' });
    };
    for (const m of missing) report(m, null, 'no such file or folder');

    const index = await loadPaperIdentities(prisma);
    const maxItemBytes = options.maxItemBytes ?? 64 * 1024 * 1024;
    const limits = options.limits ?? DEFAULT_DOCUMENT_LIMITS;
    const batchSize = options.recordBatchSize ?? 1000;
    const paperBatchSize = options.paperBatchSize ?? PAPER_BATCH;
    let dbFailures = 0;

    for (const file of files) {
      if (options.signal?.aborted) break;
      counters.currentFile = shown(file);
      await progress(true);
      const detection = await detectReader(file, shown(file), options.readers);
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
      // One write in flight while the reader parses what comes next (the database has its own thread). Writes
      // still happen one at a time and in order: each waits for the one before it.
      let writing = startedNow(async () => {});
      const write = async (work: () => Promise<void>) => {
        await writing();
        writing = startedNow(work);
      };
      let batch: ParsedRecord[] = [];
      const flushRecords = async () => {
        if (!batch.length) return;
        const toSave = batch;
        batch = [];
        await write(async () => {
          const res = await saveRecordBatch(db, toSave);
          counters.recordsAdded += res.added;
          counters.recordsUnchanged += res.unchanged;
        });
      };
      // New papers wait in a batch and are added 50 to a statement; any other paper (an update, a duplicate, one
      // that shares an identity with a waiting one) is stored on its own after the batch, as before.
      let newPapers: { paper: ParsedPaper; location: string | null }[] = [];
      const waiting = new Set<string>();
      const flushPapers = async () => {
        if (!newPapers.length) return;
        const toAdd = newPapers;
        newPapers = [];
        waiting.clear();
        await write(async () => {
          try {
            const added = await addNewPapers(
              db,
              index,
              toAdd.map((x) => x.paper),
            );
            counters.papersAdded += toAdd.length;
            counters.paragraphs += added.paragraphs;
            dbFailures = 0;
          } catch {
            // One bad paper fails its batch's statement: each is stored on its own, the bad one reported.
            for (const x of toAdd) await storePaper(x.paper, x.location);
          }
        });
      };
      const takePaper = async (paper: ParsedPaper, location: string | null) => {
        const identities = paperIdentities(paper);
        if (isNewPaper(index, paper) && !identities.some((i) => waiting.has(i))) {
          newPapers.push({ paper, location });
          for (const i of identities) waiting.add(i);
          if (newPapers.length >= paperBatchSize) await flushPapers();
          return;
        }
        await flushPapers();
        await write(() => storePaper(paper, location));
      };
      const storePaper = async (paper: ParsedPaper, location: string | null) => {
        try {
          const saved = await savePaper(prisma, index, paper, { runId });
          if (saved.change) replaced.push(saved.change);
          dbFailures = 0;
          if (saved.outcome === 'added') counters.papersAdded++;
          else if (saved.outcome === 'updated') counters.papersUpdated++;
          else counters.papersUnchanged++;
          counters.paragraphs += saved.paragraphs;
        } catch (error) {
          if (++dbFailures >= 5) throw error;
          report(file, location, `could not store the paper: ${(error as Error).message.split('\n').slice(-1)[0]}`);
        }
      };
      try {
        const iterator: AsyncIterable<ReaderItem> = detection.reader.read(
          { path: file, displayName: shown(file), size: fs.statSync(file).size },
          { maxItemBytes, limits, pdfTables: options.pdfTables },
        );
        for await (const item of iterator) {
          if (options.signal?.aborted) break;
          items++;
          if (item.type === 'error') {
            report(file, item.location, item.reason);
          } else if (item.type === 'record') {
            batch.push(item.record);
            if (batch.length >= batchSize) await flushRecords();
          } else {
            const bounded = boundPaper(item.paper, limits);
            if ('error' in bounded) {
              report(file, item.location, `not imported: ${bounded.error}`);
              if (items % 25 === 0) await progress();
              continue;
            }
            const paper =
              options.source && ['JATS', 'TEI', 'PDF', 'Text', 'Markdown'].includes(bounded.paper.source)
                ? { ...bounded.paper, source: options.source }
                : bounded.paper;
            await takePaper(paper, item.location);
          }
          if (items % 25 === 0) await progress();
        }
        await flushPapers();
        await flushRecords();
        await writing();
      } catch (error) {
        // What was read before the error is stored (the write in flight first, then the papers and records batched).
        await writing().catch(() => {});
        await flushPapers().catch(() => {});
        await flushRecords().catch(() => {});
        await writing().catch(() => {});
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

  if (replaced.length) {
    const said = `${replaced.length} stored paper${replaced.length === 1 ? ' was' : 's were'} replaced by another file, the earlier text kept as a version on the paper's page (${replaced.slice(0, 5).join(' | ')}${replaced.length > 5 ? ' | …' : ''})`;
    message = message ? `${message}; ${said}` : said;
  }
  const tLink = performance.now();
  const stored = counters.papersAdded + counters.papersUpdated + counters.recordsAdded > 0;
  if (stored) await refreshStatistics(db, ['Paper', 'Paragraph', 'Record']).catch(() => {});
  const gainedRecords = status !== 'failed' ? await linkRecordsToPapers(prisma).catch(() => [] as string[]) : [];
  if (gainedRecords.length) await refreshStatistics(db, ['Record']).catch(() => {});
  const linkSeconds = (performance.now() - tLink) / 1000;
  if (pendingErrors.length) await addRunErrors(prisma, runId, pendingErrors).catch(() => {});
  counters.currentFile = null;
  const seconds = (performance.now() - started) / 1000;
  options.onProgress?.({ ...counters, runId, items, elapsedSeconds: seconds });
  const changed = counters.papersAdded + counters.papersUpdated + gainedRecords.length > 0;
  return { status, message, counters, errorSamples: samples, items, gainedRecords, changed, seconds, linkSeconds };
}
