import { Worker } from 'node:worker_threads';
import type { TextEmbedder } from '../embedding/embedder.ts';
import { type LocalHashEmbedderOptions, localFitOf } from '../embedding/local-hash.ts';
import { answerAsk, type PoolMessage, type WorkerAsks } from './retrieval-pool.ts';
import { retrievalWorkerFile } from './worker-bundle.ts';

/** What the graph keeper's thread is given: where to keep the graph index, and how to embed its entities' names. */
export interface GraphKeeperSetup {
  dir: string;
  key: string;
  /** The names' n-gram fit, which the thread embeds with itself; null: it asks this thread for names' vectors. */
  nameFit: LocalHashEmbedderOptions | null;
  names: { id: string; dimensions: number };
}

/** A message from the graph keeper's thread: a question for this thread, or how it ended. */
export type KeeperMessage = Extract<PoolMessage, { type: 'ask' | 'failed' }> | { type: 'kept'; seconds: number };

/**
 * Keeps a first start's graph index in `dir` under `key` (keepGraphIndex) from a thread of its own
 * (graph-keeper-worker.ts), ended once it is written: the retrieval workers then read it as a restart's do. Made on
 * the server's thread, at ten times the shared corpus it raised that thread's memory by about 0.8 GB, which the
 * collector gave back only in part before the workers read their copy: the first start's peak. A thread's heap goes
 * whole when it ends. It asks this thread (`asks`) for pages of tuples, and for names' vectors unless they are the
 * n-gram fit's. Resolves with the seconds it took; rejects when it failed or stopped.
 */
export function keepGraphInThread(dir: string, key: string, names: TextEmbedder, asks: WorkerAsks): Promise<number> {
  const setup: GraphKeeperSetup = { dir, key, nameFit: localFitOf(names), names: { id: names.id, dimensions: names.dimensions } };
  const worker = new Worker(retrievalWorkerFile('graph-keeper-worker'), { workerData: setup });
  // A process (a test, the CLI) may end before it has: the graph index is then built where it is needed.
  worker.unref();
  return new Promise<number>((resolve, reject) => {
    worker.on('message', (m: KeeperMessage) => {
      if (m.type === 'ask') return answerAsk(worker, Promise.resolve(asks), m);
      void worker.terminate();
      if (m.type === 'kept') resolve(m.seconds);
      else reject(new Error(m.message));
    });
    worker.on('error', reject);
    // After `kept` or `failed` this settles nothing more.
    worker.on('exit', (code) => reject(new Error(`its thread stopped (exit ${code})`)));
  });
}
