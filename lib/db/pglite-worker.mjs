// The embedded database's own thread. PGlite executes SQL as WebAssembly on the thread that calls it: in the server
// process that was the thread answering requests, so a long statement (a record batch, an index build's read) froze
// every page for its duration. Here PGlite and its Prisma driver adapter run on a worker thread; the server's Prisma
// client talks to them through lib/db/pglite-remote.ts, one message per driver call. Plain JavaScript because Node
// starts worker files without the TypeScript loader the rest of the code runs under.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { pgliteOptions } from './pglite-options.mjs';

const pg = new PGlite(pgliteOptions(workerData.dataDir));
const ready = pg.waitReady.then(() => new PrismaPGlite(pg).connect());
/** Open interactive transactions by the id the server side knows them by. */
const transactions = new Map();
let nextTx = 1;

/** Errors cross the thread as plain data; the driver's typed errors keep their name and cause (Prisma reads both). */
const plain = (error) => ({
  name: error?.name ?? 'Error',
  message: error?.message ?? String(error),
  cause: error?.name === 'DriverAdapterError' ? error.cause : undefined,
  code: error?.code,
});

async function handle(op, args, txId) {
  const adapter = await ready;
  const target = txId ? transactions.get(txId) : adapter;
  if (!target) throw new Error(`transaction ${txId} is not open`);
  switch (op) {
    case 'queryRaw':
      return target.queryRaw(args[0]);
    case 'executeRaw':
      return target.executeRaw(args[0]);
    case 'executeScript':
      return adapter.executeScript(args[0]);
    case 'startTransaction': {
      const tx = await adapter.startTransaction(args[0]);
      const id = nextTx++;
      transactions.set(id, tx);
      return { id, options: tx.options };
    }
    case 'commit':
    case 'rollback':
      transactions.delete(txId);
      return target[op]();
    case 'bulkExecute':
      return (await pg.query(args[0], args[1])).affectedRows ?? 0;
    case 'close':
      if (!pg.closed) await pg.close();
      return null;
    default:
      throw new Error(`unknown database operation ${op}`);
  }
}

parentPort.on('message', ({ id, op, args, txId }) => {
  handle(op, args, txId).then(
    (value) => parentPort.postMessage({ id, value }),
    (error) => parentPort.postMessage({ id, error: plain(error) }),
  );
});

ready.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: plain(error) }),
);
