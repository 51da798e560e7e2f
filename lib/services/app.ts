import { type AssayConfig, config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { getDatabase } from '../db/client.ts';
import { getRetrievalService } from '../serving/app-service.ts';
import type { RetrievalService } from '../serving/retrieval-service.ts';

/**
 * What the web app's services run on: the process's database (opened and migrated on first use), its
 * configuration and its retrieval service. Pages, route handlers and server actions never hold these themselves:
 * they call the services of this folder, which ask for them here.
 */
export interface AppContext {
  db: Database;
  cfg: AssayConfig;
  retrieval: RetrievalService;
}

export async function appContext(): Promise<AppContext> {
  const cfg = config();
  const db = await getDatabase();
  return { db, cfg, retrieval: getRetrievalService(db, cfg) };
}

/** The app's database alone (services that need nothing else). */
export const appDatabase = getDatabase;
