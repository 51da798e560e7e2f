import type { AssayConfig } from '../config.ts';
import { config } from '../config.ts';
import type { Database } from './database.ts';
import { applyPendingMigrations } from './migrations.ts';
import { keepDataFolderPrivate } from '../common/private-files.ts';
import { existingProcessObject, forgetProcessObject, processPromise } from '../common/process-registry.ts';

/** Opens the database the configuration selects: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
export async function openDatabase(cfg: AssayConfig): Promise<Database> {
  keepDataFolderPrivate(cfg.dataDir);
  if (cfg.databaseUrl) {
    const { openPostgresDatabase } = await import('./postgres.ts');
    return openPostgresDatabase(cfg.databaseUrl, cfg.databasePool);
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

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    database: Promise<Database>;
  }
}

/**
 * The process-wide database, opened and migrated on first use: one per process (a process object, so Next.js dev
 * reloads do not open PGlite twice); a failed open is retried by the next request (e.g. after the lock is released).
 */
export function getDatabase(): Promise<Database> {
  return processPromise('database', () => openMigratedDatabase(config()));
}

export async function closeDatabase(): Promise<void> {
  const pending = existingProcessObject('database');
  forgetProcessObject('database');
  if (pending) await (await pending).close();
}
