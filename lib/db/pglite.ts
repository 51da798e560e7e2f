import fs from 'node:fs';
import path from 'node:path';
import { closeModesUnder } from '../common/private-files.ts';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client.ts';
import { pgliteOptions } from './pglite-options.mjs';
import type { Database } from './database.ts';
import { type PgliteThread, startPgliteThread } from './pglite-remote.ts';
import { acquireProcessLock } from './process-lock.ts';

/** Embedded PostgreSQL (PGlite, WebAssembly) stored in `<dataDir>/pglite`: the default with nothing configured. */
export async function openPgliteDatabase(dataDir: string | 'memory'): Promise<Database> {
  if (dataDir === 'memory') {
    // Tests' throwaway databases stay on the calling thread: nothing else waits on them.
    const pg = new PGlite(pgliteOptions());
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pg) });
    return {
      kind: 'pglite',
      location: 'in-memory PGlite',
      prisma,
      migrationAdapterFactory: () => new PrismaPGlite(pg) as unknown as SqlMigrationAwareDriverAdapterFactory,
      async bulkExecute(sql, params) {
        return (await pg.query(sql, params)).affectedRows ?? 0;
      },
      async close() {
        await prisma.$disconnect();
        if (!pg.closed) await pg.close();
      },
    };
  }
  const dir = path.join(dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const release = acquireProcessLock(path.join(dataDir, 'pglite.lock'), `the embedded database in ${dataDir}`);
  let thread: PgliteThread;
  try {
    // The data folder's database runs on its own thread (see pglite-remote.ts): its SQL never holds up requests.
    thread = await startPgliteThread(dir);
    closeModesUnder(dataDir);
  } catch (error) {
    release();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: thread.adapterFactory });
  return {
    kind: 'pglite',
    location: dir,
    prisma,
    migrationAdapterFactory: () => thread.adapterFactory,
    bulkExecute: (sql, params) => thread.bulkExecute(sql, params),
    async close() {
      await prisma.$disconnect();
      await thread.close();
      release();
    },
  };
}
