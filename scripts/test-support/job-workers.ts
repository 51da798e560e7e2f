import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.join(import.meta.dirname, '../..');

/**
 * A job worker alone in a process of its own (job-worker-process.ts), on the queue of `DATABASE_URL`, writing its
 * `ready-<pid>` file into `PROBE_DIR` once it takes jobs; fast stale and poll times unless `env` sets them.
 */
export function spawnJobWorker(env: Record<string, string | undefined> & { DATABASE_URL: string | undefined; PROBE_DIR: string }): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/test-support/job-worker-process.ts')], {
    cwd: root,
    env: { ...process.env, ASSAY_JOB_STALE_SECONDS: '2', ASSAY_JOB_POLL_SECONDS: '0.1', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** How many workers started with this `PROBE_DIR` take jobs. */
export const readyJobWorkers = (dir: string): number => fs.readdirSync(dir).filter((f) => f.startsWith('ready-')).length;
