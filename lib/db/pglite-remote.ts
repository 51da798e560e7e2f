import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import {
  DriverAdapterError,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
  type TransactionOptions,
} from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

/**
 * The embedded database on its own thread (lib/db/pglite-worker.mjs runs PGlite and its Prisma driver adapter
 * there). This side is a Prisma driver adapter whose every call is a message to that thread, so SQL never runs on
 * the thread that answers requests: a first-start import's record batches and the pages' reads proceed side by
 * side. Results and the driver's typed errors cross unchanged (both are plain data), so Prisma sees what it would
 * see in-process.
 */
export interface PgliteThread {
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** One parameterised statement straight through PGlite (see Database.bulkExecute). */
  bulkExecute(sql: string, params: unknown[]): Promise<number>;
  close(): Promise<void>;
}

interface WireError {
  name: string;
  message: string;
  cause?: unknown;
  code?: string;
}

type Reply = { id: number; value?: unknown; error?: WireError } | { ready: boolean; error?: WireError };

/** Where the worker file is: beside this module in the source tree, which the app, the CLI and the tests run from. */
const workerFile = () => path.join(/* turbopackIgnore: true */ process.cwd(), 'lib', 'db', 'pglite-worker.mjs');

function toError(e: WireError): Error {
  if (e.name === 'DriverAdapterError' && e.cause && typeof e.cause === 'object') return new DriverAdapterError(e.cause as DriverAdapterError['cause']);
  const error = new Error(e.message);
  error.name = e.name;
  if (e.code) (error as NodeJS.ErrnoException).code = e.code;
  return error;
}

export async function startPgliteThread(dataDir: string): Promise<PgliteThread> {
  const worker = new Worker(workerFile(), { workerData: { dataDir } });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let exited: Error | null = null;
  // The thread keeps the process alive only while a call waits on it: a CLI that has finished exits as before.
  worker.unref();

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: Reply) => {
      if ('ready' in reply) {
        if (reply.ready) resolve();
        else reject(toError(reply.error ?? { name: 'Error', message: 'the embedded database did not open' }));
        return;
      }
      const call = pending.get(reply.id);
      if (!call) return;
      pending.delete(reply.id);
      if (pending.size === 0) worker.unref();
      if (reply.error) call.reject(toError(reply.error));
      else call.resolve(reply.value);
    });
    const fail = (error: Error) => {
      exited = error;
      reject(error);
      for (const call of pending.values()) call.reject(error);
      pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the embedded database thread stopped (exit code ${code})`)));
  });
  worker.ref();
  try {
    await ready;
  } finally {
    worker.unref();
  }

  const call = <T>(op: string, args: unknown[] = [], txId?: number): Promise<T> => {
    if (exited) return Promise.reject(exited);
    const id = nextId++;
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ id, op, args, txId });
    });
  };

  const info = { provider: 'postgres' as const, adapterName: 'pglite-prisma-adapter (worker thread)' };
  const queryable = (txId?: number) => ({
    ...info,
    queryRaw: (query: SqlQuery) => call<SqlResultSet>('queryRaw', [query], txId),
    executeRaw: (query: SqlQuery) => call<number>('executeRaw', [query], txId),
  });
  const adapter: SqlDriverAdapter = {
    ...queryable(),
    executeScript: (script: string) => call<void>('executeScript', [script]),
    getConnectionInfo: () => ({ supportsRelationJoins: true }),
    async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
      const { id, options } = await call<{ id: number; options: TransactionOptions }>('startTransaction', [isolationLevel]);
      return {
        ...queryable(id),
        options,
        commit: () => call<void>('commit', [], id),
        rollback: () => call<void>('rollback', [], id),
      };
    },
    dispose: async () => {},
  };

  return {
    adapterFactory: {
      ...info,
      connect: async () => adapter,
      // Only drift checks use a shadow database: an in-memory one on this thread, as the in-process adapter makes.
      connectToShadowDb: () => new PrismaPGlite(new PGlite()).connect(),
    },
    bulkExecute: (sql, params) => call<number>('bulkExecute', [sql, params]),
    async close() {
      if (exited) return;
      await call('close').catch(() => {});
      await worker.terminate();
    },
  };
}
