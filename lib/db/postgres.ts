import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client.ts';
import type { Database } from './database.ts';

/** A PostgreSQL server (DATABASE_URL) through node-postgres, with `pool` connections for its queries (ASSAY_DATABASE_POOL). */
export async function openPostgresDatabase(url: string, pool = 8): Promise<Database> {
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: pool }) });
  let bulkPool: pg.Pool | null = null;
  return {
    kind: 'postgres',
    location: redactUrl(url),
    prisma,
    migrationAdapterFactory: () => new PrismaPg({ connectionString: url, max: 2 }) as unknown as SqlMigrationAwareDriverAdapterFactory,
    async bulkExecute(sql, params) {
      if (!bulkPool) {
        bulkPool = new pg.Pool({ connectionString: url, max: 2 });
        // An idle connection closed by the server (restart, DROP DATABASE … FORCE) must not crash the process;
        // the pool replaces it on the next query.
        bulkPool.on('error', (error) => console.warn(`[assay] idle PostgreSQL connection closed: ${error.message}`));
      }
      return (await bulkPool.query(sql, params)).rowCount ?? 0;
    },
    async close() {
      await prisma.$disconnect();
      await bulkPool?.end();
    },
  };
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgresql://(unparseable URL)';
  }
}
