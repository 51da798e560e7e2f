import fs from 'node:fs';
import path from 'node:path';
import { readConfig } from '../../lib/config.ts';
import { openDatabase } from '../../lib/db/client.ts';
import { embeddingShardJob } from '../../lib/embedding/shards.ts';
import { graphShardJob } from '../../lib/graph/shards.ts';
import { structureShardJob } from '../../lib/structurers/shards.ts';
import { recordShardJob } from '../../lib/serving/record-shards.ts';
import { defineJob, processOwner, startJobWorker, stopAllBackgroundWork } from '../../lib/queue/queue.ts';

/**
 * One app process's job worker, alone (lib/queue/two-processes.db.test.ts and lib/embedding/shards.db.test.ts start two
 * on one PostgreSQL): the same `startJobWorker` the server starts, with the stages' shard jobs and a probe job
 * that writes one line per run to `$PROBE_DIR/runs.log` and then waits `ms`, or, when `hold` is set, on its first
 * attempt until `$PROBE_DIR/release-<id>` exists.
 */
const dir = process.env.PROBE_DIR;
if (!dir) throw new Error('PROBE_DIR is not set');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const probeJob = defineJob<{ ms?: number; hold?: boolean }>('probe', async ({ id, attempt, signal }, { ms = 0, hold }) => {
  fs.appendFileSync(path.join(dir, 'runs.log'), `${id} ${process.pid} ${attempt}\n`);
  if (hold && attempt === 1) while (!fs.existsSync(path.join(dir, `release-${id}`)) && !signal.aborted) await sleep(50);
  else await sleep(ms);
});

const cfg = readConfig(process.env);
const db = await openDatabase(cfg);
await startJobWorker(db, cfg, [probeJob, embeddingShardJob, structureShardJob, graphShardJob, recordShardJob]);
fs.writeFileSync(path.join(dir, `ready-${process.pid}`), processOwner());
process.once('SIGTERM', () => {
  stopAllBackgroundWork();
  setTimeout(() => void db.close().finally(() => process.exit(0)), 500);
});
