import { createAdmission } from '../common/admission.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { importUnderWay } from '../db/ingest-runs.ts';
import { jobsUnderWay } from '../db/jobs.ts';
import { snapshotDirOf } from './prestart.ts';
import { createRetrievalService, type RetrievalService } from './retrieval-service.ts';
import { processObject } from '../common/process-registry.ts';

// Jobs that write the corpus (lib/jobs): while one runs in any process, questions are answered from the last index
// ready (stale-serving.ts). A CLI import has a run row but no job.
const CORPUS_WRITERS = ['import', 'download', 'entity-links'];
// An import run's heartbeat comes with its progress, which an index stage (minutes at ten times the shared corpus) does not report.
const IMPORT_HEARTBEAT_MS = 120_000;
export const corpusBeingWritten = (db: Database, cfg: AssayConfig) => async () =>
  (await importUnderWay(db.prisma, IMPORT_HEARTBEAT_MS)) || (await jobsUnderWay(db, CORPUS_WRITERS, cfg.jobs.staleSeconds));

// A configuration's value, serialised once per configuration object (every request asks for the service).
const configKeys = new WeakMap<AssayConfig, string>();

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    retrievalServices: WeakMap<Database, { key: string; service: RetrievalService }>;
  }
}

// A process object, so Next.js dev reloads keep the built index; one service per database and configuration.
const services = () => processObject('retrievalServices', () => new WeakMap());

/**
 * The app's retrieval service on this database and configuration, built once and shared by every request. The
 * configuration is compared by value: Next.js loads the server start (which warms the indexes after an import) and
 * the route handlers as separate module instances, each with its own configuration object of the same settings.
 */
export function getRetrievalService(db: Database, cfg: AssayConfig): RetrievalService {
  let key = configKeys.get(cfg);
  if (key === undefined) configKeys.set(cfg, (key = JSON.stringify(cfg)));
  let entry = services().get(db);
  if (!entry || entry.key !== key)
    services().set(
      db,
      (entry = {
        key,
        service: createRetrievalService(db, cfg, {
          background: true,
          admission: createAdmission(cfg.admission),
          budgetMs: cfg.budgetMs,
          snapshotDir: snapshotDirOf(cfg),
          workers: cfg.admission.workers,
          staleWhileBuilding: { writing: corpusBeingWritten(db, cfg) },
        }),
      }),
    );
  return entry.service;
}
