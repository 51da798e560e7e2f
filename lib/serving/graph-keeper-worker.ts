import { parentPort, workerData } from 'node:worker_threads';
import type { RetrievalTupleRow } from '../db/graph-views.ts';
import { keepGraphIndex } from '../retrieval/index-snapshot.ts';
import type { GraphKeeperSetup, KeeperMessage } from './graph-keeper.ts';
import type { ToWorker } from './retrieval-pool.ts';
import { askingPort, workerNameEmbedder } from './worker-port.ts';

/**
 * A thread that makes a first start's graph index in its stored form (graph-keeper.ts), asking the server's thread
 * for pages of tuples (and for names' vectors when they are not the n-gram fit's), writes it, says so and is ended:
 * what it allocated goes with its heap.
 */
const port = parentPort!;
const setup = workerData as GraphKeeperSetup;
const post = (m: KeeperMessage) => port.postMessage(m);
const { ask, answered } = askingPort(port);
port.on('message', (m: ToWorker) => {
  if (m.type === 'answer') answered(m);
});

const t0 = performance.now();
const names = workerNameEmbedder(setup.nameFit, setup.names, ask);
keepGraphIndex(setup.dir, setup.key, (after) => ask<RetrievalTupleRow[]>('loadTuples', undefined, after), names).then(
  () => post({ type: 'kept', seconds: (performance.now() - t0) / 1000 }),
  (error) => post({ type: 'failed', message: (error as Error).message }),
);
