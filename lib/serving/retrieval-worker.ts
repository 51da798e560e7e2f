import { parentPort, workerData } from 'node:worker_threads';
import type { AssayConfig } from '../config.ts';
import type { CorpusRecord } from '../db/retrieval-corpus.ts';
import type { RetrievalTupleRow } from '../db/graph-views.ts';
import type { TextEmbedder } from '../embedding/embedder.ts';
import { onCueOrAfter } from '../common/lazy.ts';
import { releaseMemory } from '../common/release-memory.ts';
import { warmPaperCaches } from '../retrieval/paper-caches.ts';
import { englishWords } from '../retrieval/english-dictionary.ts';
import { forgetPlainTerms } from '../structure/terms.ts';
import { loadSnapshot, restoreIndex, withKeptParts } from '../retrieval/index-snapshot.ts';
import { analyseQuestion, fillerTerms } from '../retrieval/question.ts';
import type { PoolMessage, ServedInfo, ToWorker } from './retrieval-pool.ts';
import { retrieve } from '../pipelines/run.ts';
import { workerOptions } from './worker-options.ts';
import { askingPort, workerNameEmbedder } from './worker-port.ts';

/**
 * A retrieval worker (see retrieval-pool.ts): reads the stored index and the kept graph index, says it is ready,
 * then answers retrievals one message at a time; what abstention reads of each paper is warmed after the first
 * answer, a slice at a time between questions (a question that comes first computes what it needs). It needs
 * nothing of the server thread to start — a restart starts it before the database is open — only, later, what it
 * cannot hold itself: a model's question vectors (one model session per process) and the records and tuples a lazy
 * index loads from the database (PGlite admits one connection per process). The n-gram embedder it holds itself
 * (the snapshot keeps its fit).
 */
interface Setup {
  cfg: AssayConfig;
  dir: string;
  key: string;
}

const port = parentPort!;
const setup = workerData as Setup;
const post = (m: PoolMessage) => port.postMessage(m);

const { ask, answered } = askingPort(port);
/** Analysed as the worker loads (see `load`): a question of the usual kind — a material, a property, a condition. */
const WARM_UP_QUESTION = 'What is the band gap of anatase TiO2 annealed at 450 °C?';

async function load() {
  const t0 = performance.now();
  // Strings as the deserializer gives them: sharing them (internStrings) saved ~10 MB here and cost a third of a second.
  const stored = loadSnapshot(setup.dir, setup.key);
  if (!stored) throw new Error(`no stored index under ${setup.key}`);
  // The n-gram embedder whose fit the snapshot keeps embeds names, and passages too when it built their vectors.
  const traits = stored.embedderTraits;
  const names = workerNameEmbedder(stored.nameFit, { id: stored.nameEmbedderId, dimensions: traits.nameDimensions }, ask);
  const fitted = stored.nameFit ? names : null;
  const passages: TextEmbedder =
    fitted && fitted.id === stored.embedderId
      ? fitted
      : {
          id: stored.embedderId,
          dimensions: traits.dimensions,
          ...(traits.fusionWeight !== undefined ? { fusionWeight: traits.fusionWeight } : {}),
          embed: (texts) => ask('embed', texts),
          ...(traits.query ? { embedQuery: (texts: string[]) => ask<Float32Array[]>('embedQuery', texts) } : {}),
        };
  const lazies = {
    recordCount: stored.recordCount,
    // A page of rows at a time: each is rendered and packed (record-index.ts), so its strings are not kept.
    loadRecords: (after: string | null) => ask<CorpusRecord[]>('loadRecords', undefined, after),
    // Pages of tuples, when no graph index was kept to read (graph-index.ts).
    loadTuples: (after: string | null) => ask<RetrievalTupleRow[]>('loadTuples', undefined, after),
  };
  const restored = restoreIndex(stored, lazies, { embedder: passages, nameEmbedder: names, buildSeconds: 0 });
  const kept = withKeptParts(restored, setup.dir, setup.key);
  const index = { ...kept, records: { ...kept.records, get: announced(kept.records.get) }, graph: { get: announced(kept.graph.get) } };
  // The default pipeline (hybrid) reads the graph: read before the first question, not by it.
  await index.graph.get();
  // And every question's analysis, once: it compiles the analysis's code, which took the first question 35 ms
  // instead of 4 (the worker is idle meanwhile, waiting for the server's thread to open the database). Then the
  // part-of-speech tagger the word checks use (fillerTerms; the analysis itself does not tag): loaded on first use,
  // it took the first question that needed it 0.25 s (one at ten times the shared corpus: 441 ms, abstention 290).
  analyseQuestion(WARM_UP_QUESTION);
  fillerTerms(WARM_UP_QUESTION);
  const info: ServedInfo = {
    paragraphs: index.paragraphs.size,
    embedderId: index.embedderId,
    nameEmbedderId: index.nameEmbedder.id,
    embedsPassages: passages === fitted,
    embedsNames: names === fitted,
    buildSeconds: (performance.now() - t0) / 1000,
  };
  return { index: { ...index, buildSeconds: info.buildSeconds }, info };
}

/**
 * A part of the index built on first use, announced to the pool while it is built: a records index's build holds this
 * thread for seconds at a time (sorting its postings), which the pool must not take for a question holding it.
 */
function announced<T>(get: () => Promise<T>): () => Promise<T> {
  let seen: Promise<T> | null = null;
  return () => {
    const building = get();
    if (building !== seen) {
      seen = building;
      post({ type: 'busy', building: true });
      building.then(
        () => post({ type: 'busy', building: false }),
        () => post({ type: 'busy', building: false }),
      );
    }
    return building;
  };
}

/**
 * What loading left behind goes, then what abstention reads of each paper is computed, and its garbage goes: once
 * the first question has been answered, or `WARM_AFTER_MS` after the worker said it is ready if none comes. Not at
 * once: a restart's first question comes while the server thread still loads the app and opens the database, and on
 * 2 cores a warm-up running then (seconds of CPU at the shared corpus) took a core from them and delayed that answer.
 */
const WARM_AFTER_MS = 10_000;
async function warm(index: Awaited<ReturnType<typeof load>>['index']) {
  const t0 = performance.now();
  try {
    // What loading left behind goes first (the stored files' buffers, their decoded form): the warm-up's own
    // allocations then reuse that memory instead of adding to it.
    releaseMemory();
    // The spelling corrector's dictionary: else the first question to need it waits 0.2 s for it.
    await englishWords();
    await warmPaperCaches(index);
    forgetPlainTerms();
    releaseMemory();
  } finally {
    // The server's health says when this is over (a failed warm-up too: nothing more is coming); bench load
    // measures a warm server only after it.
    post({ type: 'warmed', seconds: (performance.now() - t0) / 1000 });
  }
}

const ready = load();
// Replaced once the index is loaded (a question answered before then has nothing to warm).
let startWarming = () => {};
const options = workerOptions(setup.cfg);

port.on('message', (m: ToWorker) => {
  if (m.type === 'answer') return answered(m);
  // Answered at once when this thread is free: the pool stops a worker that cannot (see retrieval-pool.ts).
  if (m.type === 'ping') return post({ type: 'pong', id: m.id });
  Promise.all([ready, options])
    .then(([{ index }, configured]) => retrieve(index, m.question, m.pipeline, { ...configured, ...m.opts }))
    .then(
      (result) => {
        post({ type: 'result', id: m.id, result });
        startWarming();
      },
      (error) =>
        post({
          type: 'error',
          id: m.id,
          message: (error as Error).message,
          ...((error as { code?: string }).code ? { code: (error as { code: string }).code } : {}),
          ...((error as { retryAfterSeconds?: number }).retryAfterSeconds !== undefined
            ? { retryAfterSeconds: (error as { retryAfterSeconds: number }).retryAfterSeconds }
            : {}),
        }),
    );
});

ready.then(
  ({ index, info }) => {
    post({ type: 'ready', info });
    startWarming = onCueOrAfter(() => void warm(index).catch(() => {}), WARM_AFTER_MS);
  },
  (error) => post({ type: 'failed', message: (error as Error).message }),
);
