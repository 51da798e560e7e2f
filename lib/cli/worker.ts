import { config } from '../config.ts';
import { getDatabase } from '../db/client.ts';
import { liveJobIds } from '../db/jobs.ts';
import { processOwner, startJobWorker } from '../queue/queue.ts';
import { APP_JOBS } from '../services/jobs.ts';
import { closeOutAbandonedRuns, stopCleanlyOnSignals } from '../startup.ts';

/**
 * `npm run worker`: the app without its web server. It takes jobs from the queue every app process shares (imports
 * and their stages, downloads, evaluations, campaign answers, paper metadata, entity links, and the model's
 * embedding shards after all of them: lib/embedding/shards.ts), as the server does, so
 * slow work runs on more machines than the one serving questions. A machine is added by starting this there with
 * the same DATABASE_URL (a PostgreSQL server) and the same ASSAY_DATA_DIR contents (shared storage: uploads are
 * read from there and stored indexes written there). The embedded database admits one process, so without
 * DATABASE_URL the server runs its jobs itself and this refuses to start.
 */
const cfg = config();
if (!cfg.databaseUrl) {
  console.error(
    '[assay] npm run worker needs DATABASE_URL (a PostgreSQL server the web server uses too): the embedded database admits one process, whose server runs the jobs itself',
  );
  process.exit(2);
}
const db = await getDatabase();
// Runs a process left running without a live job are closed out, as the server's start does.
await closeOutAbandonedRuns(db, await liveJobIds(db, cfg.jobs.staleSeconds));
await startJobWorker(db, cfg, APP_JOBS);
stopCleanlyOnSignals();
console.log(`[assay] worker ${processOwner()} takes jobs from the queue on ${db.kind} (${db.location}); SIGTERM stops it after the current paper`);
