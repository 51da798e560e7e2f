import { config } from './config.ts';
import { closeDatabase, getDatabase } from './db/client.ts';
import { markAbandonedRuns } from './db/ingest-runs.ts';
import { markAbandonedEvaluationRuns } from './db/evaluation-runs.ts';
import { countPapersAndParagraphs } from './db/papers.ts';
import { countRecords } from './db/records.ts';
import { activeBackgroundIngests, startBackgroundIngest, stopAllBackgroundIngests } from './ingest/background.ts';

/**
 * Server start (Next.js instrumentation): open and migrate the database, close out runs a previous process
 * left behind, and on an empty database import ASSAY_CORPUS in the background. Never throws: a database
 * problem is logged and shown by the pages, which retry on the next request.
 */
export async function startApp(): Promise<void> {
  const cfg = config();
  try {
    const db = await getDatabase();
    console.log(`[assay] database: ${db.kind} (${db.location})`);
    // PGlite admits one process, so any run still marked running belongs to a dead one.
    await markAbandonedRuns(db.prisma, db.kind === 'pglite' ? 0 : 120_000);
    // Evaluation runs live in the server process that started them: after a restart none is still running.
    await markAbandonedEvaluationRuns(db);
    const { papers } = await countPapersAndParagraphs(db.prisma);
    const records = await countRecords(db.prisma);
    if (papers === 0 && records === 0 && cfg.corpusPaths.length > 0) {
      const runId = await startBackgroundIngest(db, cfg.corpusPaths, 'startup');
      console.log(`[assay] empty database: importing ASSAY_CORPUS (${cfg.corpusPaths.join(', ')}) as run ${runId}`);
    }
  } catch (error) {
    console.error(`[assay] database not ready: ${(error as Error).message}`);
  }
  installShutdown();
}

function installShutdown() {
  const flag = globalThis as unknown as { __assayShutdown?: boolean };
  if (flag.__assayShutdown) return;
  flag.__assayShutdown = true;
  const shutdown = async (signal: string) => {
    // Let imports stop after their current paper, then close the database so PGlite flushes cleanly.
    stopAllBackgroundIngests();
    const deadline = Date.now() + 5000;
    while (activeBackgroundIngests() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await closeDatabase().catch(() => {});
    console.log(`[assay] ${signal}: database closed`);
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
