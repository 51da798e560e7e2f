import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError } from '../common/errors.ts';
import type { AssayConfig } from '../config.ts';
import { embedQueries } from '../embedding/embedder.ts';
import type { RetrievalCorpus } from '../db/retrieval-corpus.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import type { PipelineName } from './registry.ts';
import type { RetrievalResult, RetrieveOptions } from './types.ts';

/**
 * Retrieval off the request thread: a few worker threads (node's own worker_threads; each holds a whole index, so a
 * pool library's task queue and resizing would add nothing the server's admission line does not already do) each
 * read the index the server stored (lib/retrieval/index-snapshot.ts) and answer retrievals; the server's thread only
 * routes, streams and renders. What a worker cannot hold itself it asks this thread for: the question's vector (one
 * model session per process, on its own native threads), and the records and tuples a lazy index loads from the
 * database (PGlite admits one connection per process).
 *
 * Questions reach the workers through the server's admission line (first come, first served, bounded), then go to
 * the worker with the fewest in flight. A worker that fails or exits takes the pool out of service: questions are
 * retrieved on this thread, as without a pool, until the next index is served.
 */
export interface RetrievalPool {
  /**
   * Serves the index stored under `key` in `dir`; the index's `embedders` (this thread's, never the whole index:
   * the server lets go of its own once the workers serve) and `lazies` (the database's records and tuples) answer
   * what the workers ask.
   */
  serve(embedders: Embedders, dir: string, key: string, lazies: Lazies): Promise<void>;
  /** Whether the workers hold the index of `key`, ready for questions. */
  readyFor(key: string): boolean;
  /** Whether the workers could not start on the index of `key` (questions stay on the server's thread). */
  failedOn(key: string): boolean;
  retrieve(question: string, pipeline: PipelineName, opts: Pick<RetrieveOptions, 'k' | 'mode' | 'scope' | 'modelConfigured'>): Promise<RetrievalResult>;
  size: number;
  /** Whether the workers serve an index now (none has failed since). */
  serving(): boolean;
  close(): Promise<void>;
}

/** A message from this thread to a worker: a retrieval, or the answer to what the worker asked. */
export type ToWorker =
  | { type: 'retrieve'; id: number; question: string; pipeline: PipelineName; opts: RetrieveOptions }
  | { type: 'answer'; id: number; value?: unknown; error?: string };

/** A message from a worker to this thread. */
export type PoolMessage =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; result: RetrievalResult }
  | { type: 'error'; id: number; message: string; code?: string }
  | { type: 'ask'; id: number; what: 'embed' | 'embedQuery' | 'embedNames' | 'loadRecords' | 'loadGraph'; texts?: string[] };

type Lazies = Pick<RetrievalCorpus, 'recordCount' | 'loadRecords' | 'loadGraph'>;
type Embedders = Pick<RetrievalIndex, 'embedder' | 'nameEmbedder'>;

interface Slot {
  worker: Worker;
  /** The questions sent to it and not answered yet, by id. */
  pending: Map<number, { resolve: (r: RetrievalResult) => void; reject: (e: Error) => void }>;
}

// A plain module that registers tsx in the worker and then loads retrieval-worker.ts.
const WORKER = 'retrieval-worker.mjs';

export function createRetrievalPool(cfg: AssayConfig, size: number, log: (line: string) => void): RetrievalPool {
  let slots: Slot[] = [];
  let servedKey: string | null = null;
  let healthy = false;
  let failedKey: string | null = null;
  let nextId = 1;
  const send = (worker: Worker, m: ToWorker) => worker.postMessage(m);

  /** What a worker asks of this thread: vectors from the process's embedders, rows from the database. */
  const answerAsk = (embedders: Embedders, lazies: Lazies, m: Extract<PoolMessage, { type: 'ask' }>): Promise<unknown> => {
    if (m.what === 'embed') return embedders.embedder.embed(m.texts ?? []);
    if (m.what === 'embedQuery') return embedQueries(embedders.embedder, m.texts ?? []);
    if (m.what === 'embedNames') return embedders.nameEmbedder.embed(m.texts ?? []);
    return m.what === 'loadRecords' ? lazies.loadRecords() : lazies.loadGraph();
  };

  const start = (embedders: Embedders, dir: string, key: string, lazies: Lazies) =>
    new Promise<Slot>((resolve, reject) => {
      const file = path.join(/* turbopackIgnore: true */ process.cwd(), 'lib', 'pipelines', WORKER);
      const worker = new Worker(file, {
        workerData: {
          cfg,
          dir,
          key,
          recordCount: lazies.recordCount,
          embedder: {
            id: embedders.embedder.id,
            dimensions: embedders.embedder.dimensions,
            fusionWeight: embedders.embedder.fusionWeight,
            query: !!embedders.embedder.embedQuery,
          },
          nameEmbedder: { id: embedders.nameEmbedder.id, dimensions: embedders.nameEmbedder.dimensions },
        },
      });
      // A process (a test, a CLI) may end while its workers idle; the server keeps running for its own reasons.
      worker.unref();
      const slot: Slot = { worker, pending: new Map() };
      worker.on('message', (m: PoolMessage) => {
        if (m.type === 'ready') resolve(slot);
        else if (m.type === 'failed') reject(new Error(m.message));
        else if (m.type === 'result' || m.type === 'error') {
          const p = slot.pending.get(m.id);
          slot.pending.delete(m.id);
          if (m.type === 'result') p?.resolve(m.result);
          else p?.reject(m.code ? new AppError(m.code as ConstructorParameters<typeof AppError>[0], m.message) : new Error(m.message));
        } else if (m.type === 'ask') {
          answerAsk(embedders, lazies, m).then(
            (value) => send(worker, { type: 'answer', id: m.id, value }),
            (error) => send(worker, { type: 'answer', id: m.id, error: (error as Error).message }),
          );
        }
      });
      const down = (why: string) => {
        if (slots.includes(slot)) {
          healthy = false;
          log(`a retrieval worker stopped (${why}); questions are retrieved on the server's thread until the next index is served`);
        }
        // Its unanswered questions fail now rather than hang.
        for (const p of slot.pending.values()) p.reject(new AppError('unavailable', `the retrieval worker stopped (${why}); please ask again`));
        slot.pending.clear();
        reject(new Error(why));
      };
      worker.on('error', (e) => down(e.message));
      worker.on('exit', (code) => down(`exit ${code}`));
    });

  return {
    size,
    async serve(embedders, dir, key, lazies) {
      if (servedKey === key && healthy) return;
      const t0 = performance.now();
      try {
        const fresh = await Promise.all(Array.from({ length: size }, () => start(embedders, dir, key, lazies)));
        const old = slots;
        slots = fresh;
        servedKey = key;
        healthy = true;
        log(`${size} retrieval worker(s) serve the index, ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        // Questions already sent to the old workers finish there.
        for (const s of old) setTimeout(() => void s.worker.terminate(), s.pending.size > 0 ? 30_000 : 0);
      } catch (error) {
        failedKey = key;
        log(`the retrieval workers could not start (${(error as Error).message}); questions are retrieved on the server's thread`);
      }
    },
    readyFor: (key) => healthy && servedKey === key,
    failedOn: (key) => failedKey === key,
    serving: () => healthy,
    retrieve(question, pipeline, opts) {
      const slot = slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const id = nextId++;
      const sent = performance.now();
      return new Promise<RetrievalResult>((resolve, reject) => {
        slot.pending.set(id, {
          // The trace says which worker retrieved, and what the hand-over cost (messages both ways, copying the result).
          resolve: (r) => {
            const ms = Math.round((performance.now() - sent - r.latencyMs) * 10) / 10;
            resolve({ ...r, trace: [{ step: 'worker', ms, detail: { worker: slots.indexOf(slot) + 1, of: slots.length } }, ...r.trace] });
          },
          reject,
        });
        send(slot.worker, { type: 'retrieve', id, question, pipeline, opts });
      });
    },
    async close() {
      healthy = false;
      const old = slots;
      slots = [];
      await Promise.all(old.map((s) => s.worker.terminate()));
    },
  };
}
