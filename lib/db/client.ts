import type { AssayConfig } from '../config.ts';
import { config } from '../config.ts';
import type { Database } from './database.ts';
import { applyPendingMigrations } from './migrations.ts';

/** Opens the database the configuration selects: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
export async function openDatabase(cfg: AssayConfig): Promise<Database> {
  if (cfg.databaseUrl) {
    const { openPostgresDatabase } = await import('./postgres.ts');
    return openPostgresDatabase(cfg.databaseUrl);
  }
  const { openPgliteDatabase } = await import('./pglite.ts');
  return openPgliteDatabase(cfg.dataDir);
}

/** Opens the database and brings its schema up to date: what every entry point (app, CLI) does first. */
export async function openMigratedDatabase(cfg: AssayConfig): Promise<Database> {
  const db = await openDatabase(cfg);
  try {
    await applyPendingMigrations(db);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}

// One database per process; kept on globalThis so Next.js dev reloads do not open PGlite twice.
const holder = globalThis as unknown as { __assayDb?: Promise<Database> };

/** The process-wide database, opened and migrated on first use. */
export function getDatabase(): Promise<Database> {
  if (!holder.__assayDb) {
    holder.__assayDb = openMigratedDatabase(config());
    holder.__assayDb.catch(() => {
      holder.__assayDb = undefined; // let the next request retry (e.g. after the lock is released)
    });
  }
  return holder.__assayDb;
}

export async function closeDatabase(): Promise<void> {
  const pending = holder.__assayDb;
  holder.__assayDb = undefined;
  if (pending) await (await pending).close();
}
