import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { getRun } from '../db/ingest-runs.ts';
import { enqueueJob, getJob } from '../db/jobs.ts';
import { createIngestJob } from '../jobs/import-job.ts';
import { openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';
import { corpusPapers, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';

/**
 * `npm run worker`, the app without its web server: a process that takes the queue's jobs. On PostgreSQL it imports
 * a file queued by another process (this one) and stops cleanly on SIGTERM; without DATABASE_URL it refuses to start.
 */
const root = path.resolve(import.meta.dirname, '../..');
const onPostgres = testDatabaseKind() === 'postgres';

function startWorker(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'lib/cli/worker.ts')], {
    cwd: root,
    env: {
      ...process.env,
      ASSAY_DATA_DIR: tempDir('assay-worker-'),
      ASSAY_ENRICHMENT: 'off',
      ASSAY_LOCAL_EMBEDDER: 'ngram',
      ASSAY_RETRIEVAL_WORKERS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

let db: (Database & { url?: string }) | undefined;
const children: ChildProcess[] = [];
beforeAll(async () => {
  if (onPostgres) db = await openTestDatabase();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await db?.close();
});

describe('npm run worker', () => {
  it('refuses to start on the embedded database, which admits one process, and says why', async () => {
    const worker = startWorker({ DATABASE_URL: '' });
    children.push(worker.child);
    expect(await worker.exited).toBe(2);
    expect(worker.output()).toMatch(/needs DATABASE_URL/);
  });

  it.skipIf(!onPostgres)('takes an import queued by another process, runs it whole, and stops on SIGTERM', { timeout: 180_000 }, async () => {
    const worker = startWorker({ DATABASE_URL: db!.url!, ASSAY_JOB_POLL_SECONDS: '0.2' });
    children.push(worker.child);
    await expect.poll(() => worker.output(), { timeout: 60_000 }).toMatch(/takes jobs from the queue on postgres/);

    // Queued here, as a web server queues an upload's import; this process runs no job worker.
    const file = writeCorpusJsonl(tempDir('assay-worker-corpus-'));
    const runId = await createIngestJob(db!, [file], { trigger: 'cli' });
    await enqueueJob(db!, { id: runId, kind: 'import', label: 'worker test', payload: { runId } });
    await expect.poll(async () => (await getRun(db!.prisma, runId, 0))?.status, { timeout: 150_000, interval: 500 }).toBe('succeeded');
    expect(await db!.prisma.paper.count()).toBe(corpusPapers.length);
    const job = await getJob(db!, runId);
    expect(job).toMatchObject({ state: 'done' });
    expect(job?.owner).toContain(`:${worker.child.pid}:`);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});
