import path from 'node:path';
import { type AssayConfig, workersServe } from '../config.ts';
import { preloadModel } from '../embedding/model-session.ts';
import { prestartRetrievalWorkers } from './retrieval-pool.ts';
import { makeRetrievalWorkerBundle } from './worker-bundle.ts';

/**
 * A restart's head start. The server's start (instrumentation.ts) calls this before it loads the rest of the app
 * or opens the database, so this module imports little: the app's retrieval workers begin reading the newest index
 * stored in the data folder at once, and the retrieval service takes them over if it is still the corpus's (see
 * retrieval-pool.ts), and the local model's session starts loading. On this code's first start, the workers' bundle is made meanwhile (see worker-bundle.ts).
 */
export function prestartRetrieval(cfg: AssayConfig): void {
  if (cfg.admission.workers < 1 || !workersServe(cfg)) return;
  const stored = prestartRetrievalWorkers(cfg, cfg.admission.workers, snapshotDirOf(cfg));
  // The first question's vector is the model's (the workers ask this thread for it): its session loads on its own
  // thread meanwhile, not once the service takes the workers over (about a second later on the first answer).
  if (stored) preloadModel(cfg);
  void makeRetrievalWorkerBundle();
}

/** Where the app's server keeps its indexes (see lib/retrieval/index-snapshot.ts). */
export const snapshotDirOf = (cfg: AssayConfig): string => path.join(cfg.dataDir, 'index');
