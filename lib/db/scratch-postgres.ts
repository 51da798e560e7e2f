import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from './database.ts';
import { openPostgresDatabase } from './postgres.ts';

/**
 * A throw-away database on a PostgreSQL server (for tests and benchmarks): created under a random name with the
 * given admin connection, dropped again on close. The schema is not migrated here.
 */
export async function openScratchPostgres(adminUrl: string): Promise<Database & { url: string }> {
  const name = `assay_scratch_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openPostgresDatabase(url.toString());
  const close = db.close;
  return {
    ...db,
    /** Its connection string (for other processes of a test). */
    url: url.toString(),
    async close() {
      await close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
