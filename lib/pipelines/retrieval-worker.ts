import { parentPort, workerData } from 'node:worker_threads';
import type { AssayConfig } from '../config.ts';
import type { CorpusRecord } from '../db/retrieval-corpus.ts';
import type { RetrievalTupleRow } from '../db/graph-views.ts';
import type { TextEmbedder } from '../embedding/embedder.ts';
import { LocalHashEmbedder, localTextEmbedder } from '../embedding/local-hash.ts';
import { internStrings } from '../common/intern.ts';
import { releaseMemory } from '../common/release-memory.ts';
import { warmPaperCaches } from '../retrieval/abstention.ts';
import { forgetPlainTerms } from '../structure/terms.ts';
import { loadSnapshot, restoreIndex, withKeptGraph } from '../retrieval/index-snapshot.ts';
import type { PoolMessage, ToWorker } from './retrieval-pool.ts';
import { retrieve } from './run.ts';
import { configuredOptions } from './configured.ts';

/**
 * A retrieval worker (see retrieval-pool.ts): reads the stored index, warms what the server warms (the graph index,
 * what abstention reads of each paper), says it is ready, then answers retrievals one message at a time. Vectors and
 * database rows are asked of the server's thread.
 */
interface Setup {
  cfg: AssayConfig;
  dir: string;
  key: string;
  recordCount: number;
  embedder: { id: string; dimensions: number; fusionWeight?: number; query: boolean };
  nameEmbedder: { id: string; dimensions: number };
}

const port = parentPort!;
const setup = workerData as Setup;
const post = (m: PoolMessage) => port.postMessage(m);

let asked = 0;
const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
function ask<T>(what: Extract<PoolMessage, { type: 'ask' }>['what'], texts?: string[]): Promise<T> {
  const id = ++asked;
  return new Promise<T>((resolve, reject) => {
    waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
    post({ type: 'ask', id, what, texts });
  });
}

const passages: TextEmbedder = {
  id: setup.embedder.id,
  dimensions: setup.embedder.dimensions,
  ...(setup.embedder.fusionWeight !== undefined ? { fusionWeight: setup.embedder.fusionWeight } : {}),
  embed: (texts) => ask('embed', texts),
  ...(setup.embedder.query ? { embedQuery: (texts: string[]) => ask<Float32Array[]>('embedQuery', texts) } : {}),
};

async function load() {
  const t0 = performance.now();
  // The worker keeps what it reads for as long as it serves: one copy of each repeated string.
  const stored = loadSnapshot(setup.dir, setup.key, () => {}, true);
  if (!stored) throw new Error(`no stored index under ${setup.key}`);
  // The names embedder is the n-gram one the snapshot holds the fit of, or the server's (a provider's).
  const names: TextEmbedder = stored.nameFit
    ? localTextEmbedder(new LocalHashEmbedder(stored.nameFit))
    : { id: setup.nameEmbedder.id, dimensions: setup.nameEmbedder.dimensions, embed: (texts) => ask('embedNames', texts) };
  const lazies = {
    recordCount: setup.recordCount,
    // Rows cross the thread as copies, one string per occurrence of every word: shared again here (see internStrings).
    loadRecords: () => ask<CorpusRecord[]>('loadRecords').then((rows) => internStrings(rows)),
    loadGraph: () => ask<RetrievalTupleRow[]>('loadGraph').then((rows) => internStrings(rows)),
  };
  const restored = restoreIndex(stored, lazies, { embedder: passages, nameEmbedder: names, buildSeconds: (performance.now() - t0) / 1000 });
  const index = withKeptGraph(restored, setup.dir, setup.key, () => {}, true);
  await index.graph.get();
  await warmPaperCaches(index);
  // What reading and warming left behind goes now, before the worker serves (see releaseMemory).
  forgetPlainTerms();
  releaseMemory();
  return index;
}

const ready = load();
const options = configuredOptions(setup.cfg);

port.on('message', (m: ToWorker) => {
  if (m.type === 'answer') {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error !== undefined) w?.reject(new Error(m.error));
    else w?.resolve(m.value);
    return;
  }
  ready
    .then((index) => retrieve(index, m.question, m.pipeline, { ...options, ...m.opts }))
    .then(
      (result) => post({ type: 'result', id: m.id, result }),
      (error) =>
        post({
          type: 'error',
          id: m.id,
          message: (error as Error).message,
          ...((error as { code?: string }).code ? { code: (error as { code: string }).code } : {}),
        }),
    );
});

ready.then(
  () => post({ type: 'ready' }),
  (error) => post({ type: 'failed', message: (error as Error).message }),
);
