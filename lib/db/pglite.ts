import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client.ts';
import type { Database } from './database.ts';
import { acquireProcessLock } from './process-lock.ts';

/** Embedded PostgreSQL (PGlite, WebAssembly) stored in `<dataDir>/pglite`: the default with nothing configured. */
export async function openPgliteDatabase(dataDir: string | 'memory'): Promise<Database> {
  let release = () => {};
  let pg: PGlite;
  let location: string;
  if (dataDir === 'memory') {
    pg = new PGlite();
    location = 'in-memory PGlite';
  } else {
    const dir = path.join(dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    release = acquireProcessLock(path.join(dataDir, 'pglite.lock'), `the embedded database in ${dataDir}`);
    try {
      pg = new PGlite({ dataDir: dir });
      await pg.waitReady;
    } catch (error) {
      release();
      throw error;
    }
    location = dir;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pg) });
  return {
    kind: 'pglite',
    location,
    prisma,
    migrationAdapterFactory: () => new PrismaPGlite(pg) as unknown as SqlMigrationAwareDriverAdapterFactory,
    async bulkExecute(sql, params) {
      return (await pg.query(sql, params)).affectedRows ?? 0;
    },
    async close() {
      await prisma.$disconnect();
      if (!pg.closed) await pg.close();
      release();
    },
  };
}
