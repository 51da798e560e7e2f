import type { Admission } from '../common/admission.ts';
import { lazyOnce } from '../common/lazy.ts';
import { releaseMemory } from '../common/release-memory.ts';
import { sharedRead } from '../common/shared-read.ts';
import { type AssayConfig, workersServe } from '../config.ts';
import type { Database } from '../db/database.ts';
import { corpusPages, corpusVersion } from '../db/retrieval-corpus.ts';
import { preloadModel } from '../embedding/model-session.ts';
import { createLentEmbedders, embedderChoice } from '../embedding/select.ts';
import { indexSnapshot, saveSnapshot, snapshotKey, withKeptParts, withKeptRecords } from '../retrieval/index-snapshot.ts';
import { hasSnapshot } from '../retrieval/snapshot-files.ts';
import { embedderNoteNow, type RetrievalIndex, withDense } from '../retrieval/index.ts';
import { configuredOptions } from '../pipelines/configured.ts';
import { keepGraphInThread } from './graph-keeper.ts';
import { growDense } from './dense-growth.ts';
import { readOrBuildIndex } from './index-build.ts';
import { placeIndex } from './index-placement.ts';
import { semanticSearchDone, semanticSearchPending } from './semantic-search.ts';
import { createRetrievalPool, type ServedInfo, stopPrestartedUnless, type WorkerAsks, workerAsks } from './retrieval-pool.ts';
import { admitted, retrieve } from '../pipelines/run.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import type { RetrievalResult, RetrieveOptions } from '../pipelines/types.ts';
import type { Reformulator } from '../retrieval/reformulate.ts';
import { createStaleServing, type IndexInfo, type ServedIndex, type StampNow, staleNotice } from './stale-serving.ts';

/**
 * The retrieval service used by route handlers, server actions, the CLI and tests: builds the index once per
 * corpus version (rebuilt after an import or re-structuring changes the stamp), with the configured embedder
 * and reformulator. Concurrent callers share one build.
 */
export interface RetrievalService {
  index(): Promise<RetrievalIndex>;
  retrieve(question: string, pipeline: PipelineName, opts?: RetrieveOptions): Promise<RetrievalResult>;
  reformulator: Reformulator;
  /** The configured options every retrieval gets (reformulator, re-ranker, whether a model exists). */
  options: RetrieveOptions;
  /**
   * The retrieval workers: how many, whether they serve the current index, and whether they are still warming their
   * paper caches after their first answer (null: retrieval runs on this thread).
   */
  workers(): { size: number; serving: boolean; warmingCaches: boolean; serverThreadCopy: boolean; restarts: number } | null;
  /** Stops the retrieval workers (tests; the server's exit stops them anyway). */
  close(): Promise<void>;
  /** What the current index is, without reading it back when the workers hold it (the Find evidence screen shows it). */
  info(): Promise<IndexInfo>;
  /**
   * Settles once the workers serve the current index, or once it is clear they do not: without workers, or while the
   * model still embeds the corpus (an index not complete is served by this thread). Whether they serve it.
   */
  whenServing(): Promise<boolean>;
}

const infoOf = (index: RetrievalIndex): IndexInfo => {
  // Only what the note needs is kept, not the index: this thread lets go of its copy once the workers serve it.
  const { embedderNote, pendingEmbedder, embedderId } = index;
  return {
    paragraphs: index.paragraphs.size,
    embedderId: index.embedderId,
    // Read when asked: while the model embeds the corpus in the background, how far it has got.
    get embedderNote() {
      return embedderNoteNow({ embedderNote, pendingEmbedder, embedderId });
    },
    buildSeconds: index.buildSeconds,
    vectorsIn: index.raw.dense.where,
  };
};

export function createRetrievalService(
  db: Database,
  cfg: AssayConfig,
  opts: {
    onStage?: (s: string) => void;
    /**
     * Serve at once when the embedding model has not embedded the corpus yet (the app): the index is built on the
     * n-gram stand-in, the model embeds the passages in the background (stored batch by batch, so a stop loses
     * little), and the index is swapped for the model's when it has finished. The CLI waits for the model instead.
     */
    background?: boolean;
    /** Questions wait their turn in this line (the app's server; the CLI asks one at a time and needs none). */
    admission?: Admission;
    /** Each question's time from when it is admitted (the app's ASSAY_QUESTION_BUDGET_SECONDS; none: no limit). */
    budgetMs?: number;
    /**
     * Where the index is kept between runs (lib/retrieval/index-snapshot.ts): read back at the next start instead of
     * built, when the corpus, the embedders and the code are the same. None: always built.
     */
    snapshotDir?: string;
    /**
     * Retrieval worker threads (retrieval-pool.ts) that serve the stored index once it is kept; questions go to them
     * instead of this thread. Needs `snapshotDir`; not with ASSAY_SEARCH or ASSAY_VECTORS=database (the workers hold
     * no database).
     */
    workers?: number;
    /**
     * Answer from the last index ready while `writing()` says a job writes the corpus or a newer index is built (the
     * app, see stale-serving.ts). None: every question waits for the current version's index.
     */
    staleWhileBuilding?: { writing: () => Promise<boolean> };
  } = {},
): RetrievalService {
  // The index of the corpus version last asked for; `index` null: the workers serve it and this thread let go of it.
  let current: { version: string; key: string | null; index: Promise<RetrievalIndex> | null; info: IndexInfo | null } | null = null;
  const log = (line: string) => console.log(`[assay] ${line}`);
  const pool = opts.workers && opts.snapshotDir && workersServe(cfg) ? createRetrievalPool(cfg, opts.workers, log) : null;
  // A build being handed to the workers (its graph index built and kept first, see `keep`): questions wait for it
  // rather than start the workers themselves meanwhile.
  let handingOver: { key: string; done: Promise<void> } | null = null;
  // What workers ask of this thread for an index it built: vectors from its embedders, rows from the database.
  const buildAsks = ({ embedder, nameEmbedder }: Pick<RetrievalIndex, 'embedder' | 'nameEmbedder'>) =>
    Promise.resolve(workerAsks(embedder, nameEmbedder, corpusPages(db)));
  // The workers read the index from where it is kept, so they start once it is there; settled once they serve or failed.
  const toWorkers = (asks: Promise<WorkerAsks>, dir: string, key: string): Promise<void> =>
    pool ? pool.serve(dir, key, asks).then(() => letGo(key)) : Promise.resolve();
  // Served by the workers: this thread lets go of its copy (read back from the snapshot if it is asked for again).
  const letGo = (key: string) => {
    if (!pool?.readyFor(key)) return;
    const info = poolInfo();
    if (current?.key === key && info) stale?.served({ version: current.version, index: null, info });
    if (dropServerCopy(key, ': the workers serve it')) releaseMemory();
  };
  /** Lets go of this thread's index of `key`, when it holds it; whether it did. */
  const dropServerCopy = (key: string, why: string): boolean => {
    if (current?.key !== key || !current.index) return false;
    current.index = null;
    stale?.dropIndex();
    log(`the server thread let go of its retrieval index${why}`);
    return true;
  };
  /**
   * What workers that read a stored index themselves (a restart) ask of this thread: the model's or provider's
   * vectors (the n-gram embedder they hold), and rows from the database. Made once, on the first serve that needs it.
   */
  const lent = lazyOnce(async () => ({ embedders: await createLentEmbedders(db, cfg, log), lazies: corpusPages(db) }));
  const lentAsks = () => lent().then(({ embedders, lazies }) => workerAsks(embedders.passages, embedders.names, lazies));
  // Workers that read an index built with embedders this process does not have (the model could not be loaded) are refused.
  const acceptLent = async (info: ServedInfo): Promise<string | null> => {
    const { passages, names, note } = (await lent()).embedders;
    const samePassages = passages ? info.embedderId === passages.id : info.embedsPassages;
    const sameNames = names ? info.nameEmbedderId === names.id : info.embedsNames;
    if (samePassages && sameNames) return null;
    return `the stored index was built with ${info.embedderId}, this process embeds with ${passages?.id ?? (note ? 'the n-gram stand-in' : 'its own n-gram fit')}`;
  };
  /**
   * Whether the workers serve this version's stored index, starting them on it when it is stored and they do not
   * yet (a restart: this thread then never reads its own copy). False without workers or a stored index, or when
   * they could not serve it: the caller uses this thread's index.
   */
  const servedByWorkers = async (version: string): Promise<boolean> => {
    const dir = opts.snapshotDir;
    // Every question asks: the key of the version already served is not hashed again.
    const key = !pool || !dir ? null : current?.version === version ? current.key : snapshotKey(version, embedderChoice(cfg));
    if (!pool || !dir || !key) return false;
    stopPrestartedUnless(dir, key);
    if (handingOver?.key === key) await handingOver.done;
    if (pool.readyFor(key)) return true;
    if (pool.failedOn(key) || !hasSnapshot(dir, key)) return false;
    if (current?.version !== version) current = { version, key, index: null, info: null };
    // The model's session loads on its thread while the workers read the index.
    preloadModel(cfg);
    await pool.serve(dir, key, lentAsks(), acceptLent);
    return pool.readyFor(key);
  };
  /**
   * A stored build handed to the workers: its graph index is made in its stored form from pages of tuples and kept
   * first, in a thread that ends once it has (graph-keeper.ts), and the workers read it as a restart's do rather than
   * each asking for every tuple and building one; questions wait for it (`servedByWorkers`) until they serve or
   * failed. Nothing here holds the build: the collections free it.
   */
  const handOver = (dir: string, key: string, embedders: Pick<RetrievalIndex, 'embedder' | 'nameEmbedder'>): Promise<void> => {
    const asks = buildAsks(embedders);
    return asks
      .then(async (a) => {
        releaseMemory();
        const seconds = await keepGraphInThread(dir, key, embedders.nameEmbedder, a);
        log(`the graph index is kept for the workers (${seconds.toFixed(1)} s, in a thread of its own)`);
      })
      .catch((error) => log(`the graph index could not be kept (${(error as Error).message}); the workers build their own`))
      .then(() => toWorkers(asks, dir, key));
  };
  /** Stores a build, then hands it to the workers (see `keep`); `settle` once they serve or failed. */
  const storeAndHandOver = (key: string, index: RetrievalIndex, settle: () => void) => {
    const dir = opts.snapshotDir;
    const over = () => {
      if (handingOver?.key === key) handingOver = null;
      settle();
    };
    try {
      if (!dir) return over();
      saveSnapshot(dir, indexSnapshot(index, key));
      if (!pool) return over();
      // Questions from now on wait for the workers, which read what was just stored: this thread lets go of its
      // build before they read, so a first start never holds both (at ten times the shared corpus, 1.2 GB).
      dropServerCopy(key, ' once it was stored: the workers read it');
      void handOver(dir, key, { embedder: index.embedder, nameEmbedder: index.nameEmbedder }).then(over);
    } catch (error) {
      log(`the retrieval index could not be stored (${(error as Error).message}); the next start builds it again`);
      over();
    }
  };
  /**
   * Stores a build once it has been handed out, never in the way of a question; the hand-over is pending from now on
   * (`handingOver`). No closure made here outlives this call (the build goes to the timer as an argument): the bundler
   * inlines `keep` into the build's own scope, and a callback left on `done` until the workers served kept that scope,
   * the build and its graph index alive beside the copy they read (1.1 GB at ten times the shared corpus).
   */
  const keep = (key: string, index: RetrievalIndex) => {
    let settle: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      settle = resolve;
    });
    if (pool) handingOver = { key, done };
    setTimeout(storeAndHandOver, 0, key, index, settle);
  };
  const serve = (index: RetrievalIndex): Promise<RetrievalIndex> => placeIndex(index, db, cfg, log);
  const configured = configuredOptions(cfg);
  const { reformulator } = configured;
  // One stamp read for every question that asks while it is on its way (it was two reads per question, each a
  // round trip to the database's thread).
  const stamp = sharedRead(() => corpusVersion(db));
  // Whether a job writes the corpus: asked only once the corpus has moved on from the last index ready (two queries,
  // kept off the question whose index is current), at most half a second old like the stamp.
  const writing = opts.staleWhileBuilding ? sharedRead(opts.staleWhileBuilding.writing) : null;
  /** The index of this corpus version: the current one, or built (or read back) once for every caller. */
  const indexAt = async (version: string) => {
    if (!current || current.version !== version || !current.index) {
      // Where this version's index is kept, and under which key (none: always built).
      const key = opts.snapshotDir ? snapshotKey(version, embedderChoice(cfg)) : null;
      const place = opts.snapshotDir && key ? { dir: opts.snapshotDir, key } : null;
      const keepAndServe = (index: RetrievalIndex) => {
        if (!place) return serve(index);
        keep(place.key, index);
        return serve(withKeptParts(index, place.dir, place.key, log));
      };
      const building = (async () => {
        const { readBack, index } = await readOrBuildIndex(db, cfg, place, { log, onStage: opts.onStage, background: opts.background, forWorkers: !!pool });
        if (readBack && place) {
          void toWorkers(buildAsks(index), place.dir, place.key);
          return serve(withKeptParts(index, place.dir, place.key, log));
        }
        // Not stored while the model embeds; its records index is the one the import's records stage kept, all the same.
        if (index.pendingEmbedder) return serve(place ? withKeptRecords(index, place.dir) : index);
        return keepAndServe(index);
      })();
      current = { version, key, index: building, info: null };
      building.then(
        (built) => {
          if (current?.index === building) current.info = infoOf(built);
          // Ready as soon as built when this thread serves it (the workers' copy is remembered once they serve it).
          if (!pool || built.pendingEmbedder) stale?.served({ version, index: built, info: infoOf(built) });
          const model = built.pendingEmbedder;
          if (!model) return;
          console.log(`[assay] ${built.embedderNote}`);
          const t0 = performance.now();
          // The model as the UI sees it: itself, or what follows its shards (dense-growth.ts).
          let following = model;
          semanticSearchPending(model);
          growDense(db, built, model, {
            following: (m) => {
              following = m;
              semanticSearchPending(m);
            },
            // The papers embedded so far: served by this thread (an index not complete is neither stored nor handed to workers).
            serve: async (partial) => {
              if (current?.version !== version) return;
              const index = await serve(partial);
              if (current?.version !== version) return;
              const info = infoOf(index);
              current = { version, key, index: Promise.resolve(index), info };
              stale?.served({ version, index, info });
            },
          })
            .finally(() => semanticSearchDone(following))
            .then((dense) => {
              // Swapped in only if the corpus has not changed meanwhile (a newer build embeds its own passages).
              if (current?.version !== version) return;
              return keepAndServe(withDense(built, model, dense)).then((index) => {
                if (current?.version !== version) return;
                current = { version, key, index: Promise.resolve(index), info: infoOf(index) };
                if (!pool) stale?.served({ version, index, info: current.info! });
                console.log(`[assay] ${model.id} embedded the corpus in ${((performance.now() - t0) / 1000).toFixed(0)} s: dense search now runs on it`);
              });
            })
            .catch((error) =>
              console.log(`[assay] ${model.id} could not embed the corpus (${(error as Error).message}): dense search stays on the n-gram stand-in`),
            );
        },
        () => {},
      );
      building.catch(() => {
        if (current?.index === building) current = null; // a failed build is retried by the next caller
      });
    }
    return current.index!;
  };
  /**
   * Settles once `version`'s index is built or read back, without giving it: a caller that then waits for the workers
   * (a first start's question, the warm-up) holds no reference to the build while they read theirs.
   */
  const indexBuilt = (version: string): Promise<void> => indexAt(version).then(() => {});
  /**
   * Whether the workers serve `version`'s index: a stored one they are started on, else (a first start) the one this
   * thread builds, stores and hands to them (`handingOver` settles once they serve or failed). False when none can be
   * stored (a model still embedding the corpus) or the workers failed: the caller uses this thread's index.
   */
  const servedAfterBuild = async (version: string): Promise<boolean> => {
    if (await servedByWorkers(version)) return true;
    await indexBuilt(version);
    return servedByWorkers(version);
  };
  const index = async () => indexAt(await stamp.fresh());
  const options: RetrieveOptions = { ...configured, admission: opts.admission, ...(opts.budgetMs ? { budgetMs: opts.budgetMs } : {}) };
  const poolInfo = (): IndexInfo | null => {
    const i = pool?.info();
    return i ? { paragraphs: i.paragraphs, embedderId: i.embedderId, embedderNote: null, buildSeconds: i.buildSeconds, vectorsIn: 'process' } : null;
  };
  /**
   * This version's index, ready to answer (the workers', or this thread's when they cannot serve it or the caller
   * brings its own options), remembered as ready for `stale`.
   */
  const readyAt = async (version: string, viaWorkers: boolean): Promise<ServedIndex> => {
    const info = viaWorkers && pool && (await servedAfterBuild(version)) ? poolInfo() : null;
    const index = info ? null : await indexAt(version);
    const served = { version, index, info: info ?? infoOf(index!) };
    stale?.served(served);
    return served;
  };
  /** Whether `version`'s index is on its way: built here, or being handed to the workers. */
  const buildingNow = (version: string) =>
    current?.version === version && ((!!current.index && !current.info) || (!!handingOver && handingOver.key === current.key));
  /** Whether `version`'s index answers without waiting: served by the workers, or built and held here (not being handed to them). */
  const readyNow = (version: string, viaWorkers: boolean) => {
    if (current?.version !== version) return false;
    if (viaWorkers && current.key && pool?.readyFor(current.key)) return true;
    if (viaWorkers && handingOver && handingOver.key === current.key) return false;
    return !!current.index && !!current.info;
  };
  const stale = opts.staleWhileBuilding ? createStaleServing() : null;
  /** The last index ready, when the corpus has moved on and its index is not ready (the app answers from it meanwhile). */
  const earlier = async (version: string, viaWorkers: boolean): Promise<{ served: ServedIndex; now: StampNow } | null> => {
    if (!stale || !writing || readyNow(version, viaWorkers) || !stale.behind(version)) return null;
    const building = buildingNow(version);
    const now = { version, writing: !building && (await writing.lately(500)) };
    const served = stale.instead(now, building, (s) => !!s.index || (viaWorkers && !!pool?.serving()));
    return served && { served, now };
  };
  return {
    index,
    reformulator,
    options,
    workers: () =>
      pool ? { size: pool.size, serving: pool.serving(), warmingCaches: pool.warming(), serverThreadCopy: !!current?.index, restarts: pool.restarts() } : null,
    close: async () => pool?.close(),
    async info() {
      // Describes the index (asked right after a question's retrieval, which has just read the stamp).
      const version = await stamp.recent(1000);
      if (current?.version === version && current.info) return current.info;
      const served = current?.version === version && current.key && pool?.readyFor(current.key) ? poolInfo() : null;
      if (served) return served;
      const before = (await earlier(version, true))?.served;
      if (before) return before.index ? infoOf(before.index) : (poolInfo() ?? before.info);
      // A read up to a second old may be behind: the index itself is asked for the current version.
      return infoOf(await index());
    },
    async whenServing() {
      if (!pool) return false;
      return (await readyAt(await stamp.fresh(), true)).index === null;
    },
    async retrieve(question, pipeline, o = {}) {
      // The app takes a stamp read at most half a second ago (and reads again behind it): under an import each read
      // waited behind the import's statements, which doubled a question's p95 (129 ms against 63 ms without).
      const version = await (stale ? stamp.lately(500) : stamp.fresh());
      // The workers run the service's own options; a caller's own reformulator or abstention model runs here.
      const same = <K extends 'reformulator' | 'tupleReranker' | 'graphSource'>(k: K) => o[k] === undefined || o[k] === options[k];
      const viaWorkers = !!pool && same('reformulator') && same('tupleReranker') && same('graphSource') && o.abstentionModel === undefined;
      const before = await earlier(version, viaWorkers);
      const { index: served } = before?.served ?? (await readyAt(version, viaWorkers));
      const earlierNotice = before ? staleNotice(before.served, before.now) : undefined;
      // The earlier index's notice first, then what the retrieval itself left out.
      const noticed = (r: RetrievalResult): RetrievalResult => {
        const indexNotice = [earlierNotice, r.indexNotice].filter(Boolean).join(' ');
        return indexNotice ? { ...r, indexNotice } : r;
      };
      if (served) return noticed(await retrieve(served, question, pipeline, { ...options, ...o }));
      const { k, mode, scope, modelConfigured } = o;
      return noticed(
        await admitted(
          { ...options, ...o },
          (d) => pool!.retrieve(question, pipeline, { k, mode, scope, modelConfigured, deadline: { at: d.at, budgetMs: d.budgetMs } }),
          question,
        ),
      );
    },
  };
}
