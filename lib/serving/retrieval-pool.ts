import { Worker } from 'node:worker_threads';
import { AppError } from '../common/errors.ts';
import type { AssayConfig } from '../config.ts';
import type { CorpusRecord, RetrievalCorpus } from '../db/retrieval-corpus.ts';
import { embedQueries, type TextEmbedder } from '../embedding/embedder.ts';
import type { RetrievalTupleRow } from '../db/graph-views.ts';
import { newestSnapshotKey } from '../retrieval/snapshot-files.ts';
import { retrievalWorkerFile } from './worker-bundle.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import type { RetrievalResult, RetrieveOptions } from '../pipelines/types.ts';
import { type PendingQuestion, WATCHDOG_TIMING, type WatchdogTiming, type WatchedSlot, workerWatchdog } from './worker-watchdog.ts';
import { processObject } from '../common/process-registry.ts';

/**
 * Retrieval off the request thread: a few worker threads (node's own worker_threads; each holds a whole index, so a
 * pool library's task queue and resizing would add nothing the server's admission line does not already do) each
 * read the index the server stored (lib/retrieval/index-snapshot.ts) and answer retrievals; the server's thread only
 * routes, streams and renders. What a worker cannot hold itself it asks this thread for: the question's vector (one
 * model session per process, on its own native threads), and the records and tuples a lazy index loads from the
 * database (PGlite admits one connection per process).
 *
 * A worker needs nothing of this thread to start, so a restart starts them before the database is open
 * (`prestartRetrievalWorkers`) and the first question is answered by them, not by a copy this thread reads itself.
 * Questions reach the workers through the server's admission line (first come, first served, bounded), then go to
 * the worker with the fewest in flight. A worker that fails or exits takes the pool out of service: questions are
 * retrieved on this thread, as without a pool, until the next index is served.
 */
export interface RetrievalPool {
  /**
   * Serves the index stored under `key` in `dir`: workers started on it ahead (`prestartRetrievalWorkers`) are taken
   * over, others started. `asks` answers what the workers ask of this thread (vectors, database rows) once the
   * service has it; `accept` may refuse workers that read an index this process cannot serve (say, built with a
   * model this process could not load), with the reason.
   */
  serve(dir: string, key: string, asks: Promise<WorkerAsks>, accept?: (info: ServedInfo) => Promise<string | null>): Promise<void>;
  /** Whether the workers hold the index of `key`, ready for questions. */
  readyFor(key: string): boolean;
  /** Whether the workers could not start on the index of `key` (questions stay on the server's thread). */
  failedOn(key: string): boolean;
  /**
   * Retrieves in a worker. A question with a deadline (`opts.deadline`) its worker overruns is answered with the
   * over-budget error, and a worker held by work that cannot check the deadline is replaced (worker-watchdog.ts).
   */
  retrieve(
    question: string,
    pipeline: PipelineName,
    opts: Pick<RetrieveOptions, 'k' | 'mode' | 'scope' | 'modelConfigured' | 'deadline'>,
  ): Promise<RetrievalResult>;
  size: number;
  /** Workers stopped since the start because a question held them past its time (and replaced). */
  restarts(): number;
  /** Whether the workers serve an index now (none has failed since). */
  serving(): boolean;
  /** Whether a serving worker has still to warm its paper caches (its answers are slower until then). */
  warming(): boolean;
  /** What the served index is, as the workers read it (null while none is served). */
  info(): ServedInfo | null;
  /** Stops the workers; the pool serves no index after this. */
  close(): Promise<void>;
}

/** What a worker says of the index it has read, when it is ready. */
export interface ServedInfo {
  paragraphs: number;
  embedderId: string;
  nameEmbedderId: string;
  /** Whether the worker embeds questions (and names) itself, with the n-gram embedder whose fit the snapshot keeps. */
  embedsPassages: boolean;
  embedsNames: boolean;
  /** Seconds from the worker's start to ready. */
  buildSeconds: number;
}

/** What the workers ask of this thread: vectors from the process's embedders, rows from the database. */
export interface WorkerAsks {
  embed(texts: string[]): Promise<Float32Array[]>;
  embedQuery(texts: string[]): Promise<Float32Array[]>;
  embedNames(texts: string[]): Promise<Float32Array[]>;
  loadRecords(after: string | null): Promise<CorpusRecord[]>;
  /** One page of tuples, after id `after`: a graph index's build (graph-keeper.ts, or a worker without a kept one). */
  loadTuples(after: string | null): Promise<RetrievalTupleRow[]>;
}

/**
 * What retrieval workers may ask of this thread, answered by these embedders and database loaders; an embedder that
 * is null is one the workers hold themselves (the n-gram fit of their stored index).
 */
export function workerAsks(passages: TextEmbedder | null, names: TextEmbedder | null, lazies: Pick<RetrievalCorpus, 'loadRecords' | 'loadTuples'>): WorkerAsks {
  const missing = (what: string) => Promise.reject(new Error(`no ${what} embedder in this process: the worker holds it`));
  return {
    embed: (texts) => (passages ? passages.embed(texts) : missing('passage')),
    embedQuery: (texts) => (passages ? embedQueries(passages, texts) : missing('passage')),
    embedNames: (texts) => (names ? names.embed(texts) : missing('name')),
    loadRecords: lazies.loadRecords,
    loadTuples: lazies.loadTuples,
  };
}

/** Answers what a worker asked (a message of type 'ask') with `asks`, once the service has them. */
export function answerAsk(worker: Worker, asks: Promise<WorkerAsks>, m: Extract<PoolMessage, { type: 'ask' }>): void {
  const send = (answer: ToWorker) => worker.postMessage(answer);
  asks
    .then((a): Promise<unknown> => {
      if (m.what === 'loadRecords' || m.what === 'loadTuples') return a[m.what](m.after ?? null);
      return a[m.what](m.texts ?? []);
    })
    .then(
      (value) => send({ type: 'answer', id: m.id, value }),
      (error) => send({ type: 'answer', id: m.id, error: (error as Error).message }),
    );
}

/** A message from this thread to a worker: a retrieval, or the answer to what the worker asked. */
export type ToWorker =
  | { type: 'retrieve'; id: number; question: string; pipeline: PipelineName; opts: RetrieveOptions }
  | { type: 'answer'; id: number; value?: unknown; error?: string }
  /** Whether its thread is free to answer (a question is overdue). */
  | { type: 'ping'; id: number };

/** A message from a worker to this thread. */
export type PoolMessage =
  | { type: 'ready'; info: ServedInfo }
  /** Its paper caches are warm (see the worker's `warm`). */
  | { type: 'warmed'; seconds: number }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; result: RetrievalResult }
  | { type: 'error'; id: number; message: string; code?: string; retryAfterSeconds?: number }
  | { type: 'ask'; id: number; what: keyof WorkerAsks; texts?: string[]; after?: string | null }
  | { type: 'pong'; id: number }
  /** It builds a part of its index made on first use (`building` true), or has finished (false). */
  | { type: 'busy'; building: boolean };

interface Slot extends WatchedSlot {
  /** Whether it has warmed its paper caches (it warms them after its first answer, see the worker). */
  warm: boolean;
}

interface Started {
  slot: Slot;
  ready: Promise<ServedInfo>;
  /** Seconds its warm-up took, once it is over. */
  warmed: Promise<number>;
  /** Gone before it was ready, or since (its questions are failed). */
  onDown: (down: (why: string) => void) => void;
}

/** Starts one worker on the index of `key`; what it asks waits for `asks`. */
function startWorker(cfg: AssayConfig, dir: string, key: string, asks: Promise<WorkerAsks>): Started {
  const worker = new Worker(retrievalWorkerFile(), { workerData: { cfg, dir, key } });
  // A process (a test, a CLI) may end while its workers idle; the server keeps running for its own reasons.
  worker.unref();
  const slot: Slot = { worker, pending: new Map(), warm: false, ready: false, building: 0, heard: Date.now(), pongs: new Map(), retired: false };
  let warmedIn: (seconds: number) => void = () => {};
  const warmed = new Promise<number>((resolve) => {
    warmedIn = resolve;
  });
  let downHandler: (why: string) => void = () => {};
  let settle: { resolve: (i: ServedInfo) => void; reject: (e: Error) => void } = { resolve: () => {}, reject: () => {} };
  const ready = new Promise<ServedInfo>((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => {});
  worker.on('message', (m: PoolMessage) => {
    slot.heard = Date.now();
    if (m.type === 'ready') {
      slot.ready = true;
      settle.resolve(m.info);
    } else if (m.type === 'pong') slot.pongs.get(m.id)?.();
    else if (m.type === 'busy') slot.building = Math.max(0, slot.building + (m.building ? 1 : -1));
    else if (m.type === 'warmed') {
      slot.warm = true;
      warmedIn(m.seconds);
    } else if (m.type === 'failed') settle.reject(new Error(m.message));
    else if (m.type === 'result' || m.type === 'error') {
      const p = slot.pending.get(m.id);
      slot.pending.delete(m.id);
      if (m.type === 'result') p?.resolve(m.result);
      else
        p?.reject(
          m.code
            ? new AppError(m.code as ConstructorParameters<typeof AppError>[0], m.message, { retryAfterSeconds: m.retryAfterSeconds })
            : new Error(m.message),
        );
    } else if (m.type === 'ask') answerAsk(worker, asks, m);
  });
  const down = (why: string) => {
    if (slot.retired) return;
    downHandler(why);
    // Its unanswered questions fail now rather than hang.
    for (const p of slot.pending.values()) p.reject(new AppError('unavailable', `the retrieval worker stopped (${why}); please ask again`));
    slot.pending.clear();
    settle.reject(new Error(why));
  };
  worker.on('error', (e) => down(e.message));
  worker.on('exit', (code) => down(`exit ${code}`));
  return { slot, ready, warmed, onDown: (h) => (downHandler = h) };
}

/** Workers started on a stored index before the service that will serve it exists (a restart: see `prestartRetrievalWorkers`). */
interface Prestarted {
  dir: string;
  key: string;
  started: Started[];
  /** Hands them what they may ask, once a pool takes them over. */
  give: (asks: Promise<WorkerAsks>) => void;
}

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    prestartedWorkers: { workers: Prestarted | null };
  }
}

// A process object: Next.js loads the server start and the route handlers as separate module instances.
const ahead = () => processObject('prestartedWorkers', () => ({ workers: null }));

/**
 * A restart's head start: `size` workers begin reading the newest index stored in `dir` while the server opens its
 * database, which tells only later whether that index is still the corpus's (its key names the corpus stamp, the
 * embedders and the code). The pool that serves that key takes them over; one that serves another key stops them.
 * Returns the key they read, or null when `dir` holds no index.
 */
export function prestartRetrievalWorkers(cfg: AssayConfig, size: number, dir: string): string | null {
  if (ahead().workers || size < 1) return null;
  const key = newestSnapshotKey(dir);
  if (!key) return null;
  let give: (asks: Promise<WorkerAsks>) => void = () => {};
  const asks = new Promise<WorkerAsks>((resolve) => {
    give = (a) => void a.then(resolve);
  });
  const started = Array.from({ length: size }, () => startWorker(cfg, dir, key, asks));
  ahead().workers = { dir, key, started, give };
  return key;
}

/** The prestarted workers if they read `key` in `dir`; any others are stopped. */
function takePrestarted(dir: string, key: string): Prestarted | null {
  const p = ahead().workers;
  if (!p) return null;
  ahead().workers = null;
  if (p.dir === dir && p.key === key) return p;
  for (const s of p.started) void s.slot.worker.terminate();
  return null;
}

/** Stops workers started ahead on an index other than `key` in `dir` (the corpus or the code changed since it was stored). */
export function stopPrestartedUnless(dir: string, key: string): void {
  const p = ahead().workers;
  if (p && (p.dir !== dir || p.key !== key)) takePrestarted(dir, key);
}

export function createRetrievalPool(cfg: AssayConfig, size: number, log: (line: string) => void, timing: WatchdogTiming = WATCHDOG_TIMING): RetrievalPool {
  let slots: Slot[] = [];
  // Where the served workers read their index and what they ask for: a replacement reads the same.
  let served: { dir: string; asks: Promise<WorkerAsks> } | null = null;
  let restarts = 0;
  let servedKey: string | null = null;
  let servedInfo: ServedInfo | null = null;
  let healthy = false;
  let failedKey: string | null = null;
  let nextId = 1;
  let closed = false;
  // The serve in flight, by key: a question and the warm-up asking at once start one set of workers.
  const inFlight = new Map<string, Promise<void>>();
  const send = (worker: Worker, m: ToWorker) => worker.postMessage(m);

  const serveNow = async (dir: string, key: string, asks: Promise<WorkerAsks>, accept?: (info: ServedInfo) => Promise<string | null>) => {
    const t0 = performance.now();
    const pre = takePrestarted(dir, key);
    if (pre) pre.give(asks);
    const fresh = pre?.started ?? Array.from({ length: size }, () => startWorker(cfg, dir, key, asks));
    try {
      const infos = await Promise.all(fresh.map((s) => s.ready));
      const refused = accept ? await accept(infos[0]) : null;
      if (refused) throw new Error(refused);
      const old = slots;
      slots = fresh.map((s) => s.slot);
      for (const s of fresh) watchDown(s, key);
      served = { dir, asks };
      servedKey = key;
      servedInfo = infos[0];
      healthy = true;
      log(
        `${fresh.length} retrieval worker(s) serve the index, ready in ${((performance.now() - t0) / 1000).toFixed(1)} s${pre ? ` (started ahead; ${infos[0].buildSeconds.toFixed(1)} s from their start)` : ''}`,
      );
      void Promise.all(fresh.map((s) => s.warmed)).then((seconds) => {
        // Said only of workers still serving (not of a set replaced by the next index meanwhile).
        if (fresh.every((s) => slots.includes(s.slot))) log(`the retrieval worker(s) warmed their paper caches in ${Math.max(...seconds).toFixed(1)} s`);
      });
      // Questions already sent to the old workers finish there.
      for (const s of old) setTimeout(() => void s.worker.terminate(), s.pending.size > 0 ? 30_000 : 0);
    } catch (error) {
      failedKey = key;
      for (const s of fresh) void s.slot.worker.terminate();
      log(`the retrieval workers could not start (${(error as Error).message}); questions are retrieved on the server's thread`);
    }
  };

  /** A serving worker that fails takes the pool out of service (one stopped on purpose is `retired` and says nothing). */
  function watchDown(s: Started, key: string) {
    s.onDown((why) => {
      if (!slots.includes(s.slot)) return;
      healthy = false;
      // Not started again on this index by the next question: a worker that died on it may die again.
      failedKey = key;
      log(`a retrieval worker stopped (${why}); questions are retrieved on the server's thread until the next index is served`);
    });
  }

  /**
   * A worker held past a question's time is stopped, and a new one on the same index takes its place (questions sent
   * to it meanwhile wait while it reads the index). The question that held it has been answered over-budget by the
   * watchdog already; the others the stopped worker still had are sent again to the new one, under their own
   * deadlines: an overrun ends that question, not every question on the worker.
   */
  function replace(old: WatchedSlot) {
    const at = (slots as WatchedSlot[]).indexOf(old);
    if (at < 0 || !served || !servedKey || closed) return;
    old.retired = true;
    const others = [...old.pending.values()];
    old.pending.clear();
    void old.worker.terminate();
    const fresh = startWorker(cfg, served.dir, servedKey, served.asks);
    slots[at] = fresh.slot;
    const restarted = new AppError('unavailable', 'The retrieval worker was restarted: another question held it past its time. Please ask again.', {
      retryAfterSeconds: 2,
    });
    for (const p of others)
      if (p.resendTo) p.resendTo(fresh.slot);
      else p.reject(restarted);
    watchDown(fresh, servedKey);
    restarts++;
    log(`a retrieval worker did not answer for ${timing.pingMs / 1000} s after a question's time was up: it was stopped, and a new one reads the index`);
  }
  const watchdog = workerWatchdog(timing, {
    serving: (slot) => !slot.retired && !closed && (slots as WatchedSlot[]).includes(slot),
    replace,
    ping: (slot, id) => send(slot.worker, { type: 'ping', id }),
    nextId: () => nextId++,
  });

  return {
    size,
    restarts: () => restarts,
    serve(dir, key, asks, accept) {
      if ((servedKey === key && healthy) || closed) return Promise.resolve();
      let serving = inFlight.get(key);
      if (!serving) {
        serving = serveNow(dir, key, asks, accept).finally(() => inFlight.delete(key));
        inFlight.set(key, serving);
      }
      return serving;
    },
    readyFor: (key) => healthy && servedKey === key,
    failedOn: (key) => failedKey === key,
    serving: () => healthy,
    warming: () => healthy && slots.some((s) => !s.warm),
    info: () => (healthy ? servedInfo : null),
    retrieve(question, pipeline, opts) {
      const slot = slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const id = nextId++;
      const sent = performance.now();
      const { deadline } = opts;
      return new Promise<RetrievalResult>((resolve, reject) => {
        const message = { type: 'retrieve', id, question, pipeline, opts } as const;
        let on: WatchedSlot = slot;
        let unwatch = deadline ? watchdog.watch(on, id, deadline) : () => {};
        const pending: PendingQuestion = {
          // The trace says which worker retrieved, and what the hand-over cost (messages both ways, copying the result).
          resolve: (r) => {
            unwatch();
            const ms = Math.round((performance.now() - sent - r.latencyMs) * 10) / 10;
            resolve({ ...r, trace: [{ step: 'worker', ms, detail: { worker: (slots as WatchedSlot[]).indexOf(on) + 1, of: slots.length } }, ...r.trace] });
          },
          reject: (e) => {
            unwatch();
            reject(e);
          },
          resendTo: (next) => {
            unwatch();
            on = next;
            unwatch = deadline ? watchdog.watch(next, id, deadline) : () => {};
            next.pending.set(id, pending);
            send(next.worker, message);
          },
        };
        slot.pending.set(id, pending);
        send(slot.worker, message);
      });
    },
    async close() {
      healthy = false;
      closed = true;
      const old = slots;
      slots = [];
      await Promise.all(old.map((s) => s.worker.terminate()));
    },
  };
}
