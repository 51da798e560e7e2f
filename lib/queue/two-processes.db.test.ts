import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { enqueueJob, getJob } from '../db/jobs.ts';
import { openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { readyJobWorkers, spawnJobWorker } from '../../scripts/test-support/job-workers.ts';
import { backgroundJobs } from './queue.ts';

/**
 * Two app processes on one PostgreSQL share the job queue (issue 33): each job runs once, both take jobs, the queue
 * panel shows the jobs of both, and a killed process's job is taken over by the other. PGlite admits one process,
 * so there this file has nothing to test.
 */
const onPostgres = testDatabaseKind() === 'postgres';

let db: Database & { url?: string };
const dir = tempDir('assay-two-processes-');
const children: ChildProcess[] = [];

function startWorker(): ChildProcess {
  const child = spawnJobWorker({ DATABASE_URL: db.url, PROBE_DIR: dir });
  children.push(child);
  return child;
}
const runs = () =>
  (fs.existsSync(path.join(dir, 'runs.log')) ? fs.readFileSync(path.join(dir, 'runs.log'), 'utf8').trim().split('\n') : []).map((l) => {
    const [id, pid, attempt] = l.split(' ');
    return { id, pid: Number(pid), attempt: Number(attempt) };
  });

beforeAll(async () => {
  if (onPostgres) db = await openTestDatabase();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await db?.close();
});

describe.skipIf(!onPostgres)('two app processes on one PostgreSQL', () => {
  it('share the queue: every job runs once, both take jobs, and a killed process’s job is taken over', { timeout: 120_000 }, async () => {
    const a = startWorker();
    const b = startWorker();
    await expect.poll(() => readyJobWorkers(dir), { timeout: 60_000 }).toBe(2);

    // Thirty short jobs: each runs exactly once, and both processes run some.
    const ids = Array.from({ length: 30 }, (_, i) => `probe-${String(i).padStart(2, '0')}`);
    for (const id of ids) await enqueueJob(db, { id, kind: 'probe', label: id, payload: { ms: 60 } });
    await expect.poll(async () => await db.prisma.job.count({ where: { kind: 'probe', state: 'done' } }), { timeout: 60_000 }).toBe(30);
    const done = runs();
    expect(done.map((r) => r.id).sort()).toEqual(ids);
    expect(new Set(done.map((r) => r.pid))).toEqual(new Set([a.pid, b.pid]));

    // Two held jobs: one in each process, both on the panel of a third process (this one) with their owners.
    await enqueueJob(db, { id: 'held-1', kind: 'probe', label: 'held 1', payload: { hold: true } });
    await enqueueJob(db, { id: 'held-2', kind: 'probe', label: 'held 2', payload: { hold: true } });
    await expect.poll(async () => (await backgroundJobs(db)).filter((j) => j.state === 'running').length, { timeout: 20_000 }).toBe(2);
    const panel = await backgroundJobs(db);
    expect(new Set(panel.map((j) => Number(j.owner?.split(':')[1])))).toEqual(new Set([a.pid, b.pid]));
    expect(panel.every((j) => !j.here)).toBe(true);

    // Kill the process holding held-1 without warning; the other finishes its own and takes held-1 over.
    const held1 = await getJob(db, 'held-1');
    const victim = [a, b].find((c) => c.pid === Number(held1?.owner?.split(':')[1]))!;
    const survivor = victim === a ? b : a;
    victim.kill('SIGKILL');
    fs.writeFileSync(path.join(dir, 'release-held-2'), '');
    await expect.poll(async () => (await getJob(db, 'held-1'))?.state, { timeout: 30_000 }).toBe('done');
    const held1Runs = runs().filter((r) => r.id === 'held-1');
    expect(held1Runs).toEqual([
      { id: 'held-1', pid: victim.pid, attempt: 1 },
      { id: 'held-1', pid: survivor.pid, attempt: 2 },
    ]);
    expect((await getJob(db, 'held-1'))?.owner?.split(':')[1]).toBe(String(survivor.pid));
    expect(runs().filter((r) => r.id === 'held-2')).toHaveLength(1);
  });
});
