import { createAdmission } from '../common/admission.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { snapshotDirOf } from './prestart.ts';
import { createRetrievalService, type RetrievalService } from './service.ts';

// How long the corpus stamp must stand still before a question starts the changed corpus's index: an import writes a
// batch well within this, so no index of a half-imported corpus is built (its own last stage builds the final one).
const STILL_BEFORE_REBUILD_SECONDS = 10;

// A configuration's value, serialised once per configuration object (every request asks for the service).
const configKeys = new WeakMap<AssayConfig, string>();

// Kept on globalThis so Next.js dev reloads keep the built index; one service per database and configuration.
const services = ((globalThis as unknown as { __assayRetrieval?: WeakMap<Database, { key: string; service: RetrievalService }> }).__assayRetrieval ??=
  new WeakMap());

/**
 * The app's retrieval service on this database and configuration, built once and shared by every request. The
 * configuration is compared by value: Next.js loads the server start (which warms the indexes after an import) and
 * the route handlers as separate module instances, each with its own configuration object of the same settings.
 */
export function getRetrievalService(db: Database, cfg: AssayConfig): RetrievalService {
  let key = configKeys.get(cfg);
  if (key === undefined) configKeys.set(cfg, (key = JSON.stringify(cfg)));
  let entry = services.get(db);
  if (!entry || entry.key !== key)
    services.set(
      db,
      (entry = {
        key,
        service: createRetrievalService(db, cfg, {
          background: true,
          admission: createAdmission(cfg.admission),
          snapshotDir: snapshotDirOf(cfg),
          workers: cfg.admission.workers,
          staleWhileBuilding: { quietSeconds: STILL_BEFORE_REBUILD_SECONDS },
        }),
      }),
    );
  return entry.service;
}
