import { config } from './config.ts';
import { closeDatabase, getDatabase } from './db/client.ts';
import type { Database } from './db/database.ts';
import { markAbandonedEvaluationRuns } from './db/evaluation-runs.ts';
import { markAbandonedRuns } from './db/ingest-runs.ts';
import { corpusCounts } from './db/corpus-counts.ts';
import { hasPapers } from './db/papers.ts';
import { hasRecords } from './db/records.ts';
import { liveJobIds } from './db/jobs.ts';
import { resumeOnStart, startBackgroundIngest, warmOnStart } from './jobs/background.ts';
import { tuneForServing } from './common/v8-tuning.ts';
import { stopModelSessions } from './embedding/model-session.ts';
import { activeBackgroundWork, startJobWorker, stopAllBackgroundWork } from './queue/queue.ts';
import { APP_JOBS } from './services/jobs.ts';
import { processObject } from './common/process-registry.ts';
import { trainHeadsInBackground } from './structurers/heads/training.ts';

/**
 * Server start (Next.js instrumentation): open and migrate the database, close out runs a previous process
 * left behind and resume the import jobs it interrupted, and on an empty database import ASSAY_CORPUS in the
 * background. Never throws: a database problem is logged and shown by the pages, which retry on the next request.
 */
export async function startApp(): Promise<void> {
  const cfg = config();
  // The start-up's indexes read back or built, when there are any (V8's serving setting waits for them).
  let warm: Promise<void> = Promise.resolve();
  try {
    const db = await getDatabase();
    console.log(`[assay] database: ${db.kind} (${db.location})`);
    const live = await liveJobIds(db, cfg.jobs.staleSeconds);
    // Side by side (requests wait for this start-up: a restart's first answer is held to 2 s on 2 cores): while the
    // database thread runs one statement, this one prepares the next. Whether there is a corpus, not how large.
    const [havePapers, haveRecords] = await Promise.all([hasPapers(db.prisma), hasRecords(db.prisma), closeOutAbandonedRuns(db, live)]);
    // The shared job queue: this process takes queued jobs (its own, other processes', a dead process's).
    await startJobWorker(db, cfg, APP_JOBS);
    const resumed = await resumeOnStart(db, cfg, live);
    if (resumed.length) console.log(`[assay] resuming interrupted import run(s) ${resumed.join(', ')}`);
    if (resumed.length === 0 && !havePapers && !haveRecords && cfg.corpusPaths.length > 0) {
      const runId = await startBackgroundIngest(db, cfg, cfg.corpusPaths, 'startup');
      console.log(`[assay] empty database: importing ASSAY_CORPUS (${cfg.corpusPaths.join(', ')}) as run ${runId}`);
    } else if (resumed.length === 0 && (havePapers || haveRecords)) {
      warm = warmOnStart(db, cfg);
      // Counted now, on the database's thread, for the first health check or library page (not awaited: the start
      // needs no count, and the first request's route loads on this thread meanwhile).
      void corpusCounts(db).catch(() => {});
    }
  } catch (error) {
    console.error(`[assay] database not ready: ${(error as Error).message}`);
  }
  void warm.then(tuneForServing);
  // With labelled paragraphs at hand and none trained yet: the structuring heads, once the start's indexes are ready.
  void warm.then(() => trainHeadsInBackground(cfg));
  stopCleanlyOnSignals();
}

/**
 * Import and evaluation runs a stopped process left running, closed out (the server's start and `npm run worker`).
 * Runs whose job is queued or running in a live process (`live`: another app process on this PostgreSQL) are theirs;
 * of the others, PGlite (one process) left every running one behind, PostgreSQL those gone quiet for 2 minutes.
 */
export async function closeOutAbandonedRuns(db: Database, live: string[]): Promise<void> {
  await Promise.all([markAbandonedRuns(db.prisma, db.kind === 'pglite' ? 0 : 120_000, live), markAbandonedEvaluationRuns(db, live)]);
}

declare module './common/process-registry.ts' {
  interface ProcessObjects {
    shutdownHandlers: { installed: boolean };
  }
}

/**
 * On SIGTERM or SIGINT: jobs stop after their current paper and store their stage (they go back to the queue), the
 * model's thread finishes its batch, the database is closed, the process exits. The server and `npm run worker`.
 */
export function stopCleanlyOnSignals() {
  // Once per process, however many module instances run the start.
  const installed = processObject('shutdownHandlers', () => ({ installed: false }));
  if (installed.installed) return;
  installed.installed = true;
  const shutdown = async (signal: string) => {
    // Let jobs stop after their current paper and store their stage, then close the database so PGlite flushes cleanly.
    stopAllBackgroundWork();
    const deadline = Date.now() + 5000;
    while (activeBackgroundWork() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // The model's thread finishes the batch it computes first: an exit in the middle of one aborts the process.
    await stopModelSessions();
    await closeDatabase().catch(() => {});
    console.log(`[assay] ${signal}: database closed`);
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
