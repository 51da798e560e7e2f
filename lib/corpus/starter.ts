import path from 'node:path';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { addLateRunErrors, createRun, finishRun, updateRunProgress } from '../db/ingest-runs.ts';
import { emptyCounters } from '../ingest/pipeline.ts';
import { type IngestReport, runIngest } from '../jobs/import-job.ts';
import { fetchStarterCorpus } from './europe-pmc.ts';
import { defineJob, startJob } from '../queue/queue.ts';

/** The download job: a second attempt (its process stopped) downloads again; files already read are skipped. */
export const downloadJob = defineJob<{ runId: string; ids?: string[]; source?: string }>('download', ({ db, cfg, signal }, { runId, ids, source }) =>
  downloadAndIngestStarterCorpus(db, cfg, { runId, ids, source, signal }),
);

/**
 * Queues the download and import of chosen Europe PMC articles (by PMC id) as a job of the app's queue, the papers
 * stored under `source`; returns its run id.
 */
export function startArticleDownload(db: Database, cfg: AssayConfig, ids: string[], source: string, label: string): Promise<string> {
  return startJob(
    db,
    cfg,
    downloadJob,
    { label },
    async () => (await createRun(db.prisma, 'fetch', [`Europe PMC: ${ids.join(', ')}`], 'queued')).id,
    (runId) => ({ runId, ids, source }),
  );
}

/** Queues the starter corpus's download and import as a job of the app's queue; returns its run id. */
export function startStarterDownload(db: Database, cfg: AssayConfig): Promise<string> {
  return startJob(
    db,
    cfg,
    downloadJob,
    { label: `starter corpus from Europe PMC (${cfg.starterSize} articles)` },
    async () => (await createRun(db.prisma, 'fetch', [`Europe PMC: ${cfg.starterQuery}`], 'queued')).id,
    (runId) => ({ runId }),
  );
}

/**
 * Downloads the open-access starter corpus (JATS from Europe PMC) into the data folder and ingests it, as one
 * import run whose progress the UI can follow. Offline, the run fails with a message saying so.
 */
export async function downloadAndIngestStarterCorpus(
  db: Database,
  cfg: AssayConfig,
  opts: { ids?: string[]; source?: string; runId?: string; signal?: AbortSignal; onStatus?: (msg: string) => void } = {},
): Promise<IngestReport | { runId: string; status: 'failed'; message: string }> {
  const runId = opts.runId ?? (await createRun(db.prisma, 'fetch', [`Europe PMC: ${opts.ids?.join(', ') || cfg.starterQuery}`])).id;
  const outDir = path.join(cfg.dataDir, 'downloads', 'europepmc');
  let fetched;
  try {
    await updateRunProgress(db.prisma, runId, { status: 'running', currentFile: 'asking Europe PMC for the articles' });
    fetched = await fetchStarterCorpus({
      baseUrl: cfg.europePmcUrl,
      query: cfg.starterQuery,
      size: cfg.starterSize,
      outDir,
      ids: opts.ids,
      signal: opts.signal,
      onProgress: (done, total, current) => {
        const msg = current ? `downloading ${done + 1}/${total}: ${current}` : `downloaded ${total} articles`;
        opts.onStatus?.(msg);
        void updateRunProgress(db.prisma, runId, { currentFile: msg, status: 'running' }).catch(() => {});
      },
    });
  } catch (error) {
    const message = (error as Error).message;
    const zero = { ...emptyCounters(), errorCount: 1 };
    await finishRun(db.prisma, runId, 'failed', zero, {}, message);
    return { runId, status: 'failed', message };
  }
  const report = await runIngest(db, cfg, fetched.files, {
    trigger: 'fetch',
    runId,
    source: opts.source ?? 'Europe PMC',
    signal: opts.signal,
    recordsIndex: true,
  });
  if (fetched.failures.length) {
    await addLateRunErrors(
      db.prisma,
      runId,
      fetched.failures.map((f) => ({ file: f.id, location: 'download', reason: f.reason })),
    );
  }
  return { ...report, errors: report.errors + fetched.failures.length };
}
