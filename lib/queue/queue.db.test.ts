import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { claimJob, enqueueJob, getJob } from '../db/jobs.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { activeBackgroundWork, backgroundJobs, defineJob, jobProgress, MAX_QUEUED, processOwner, startJob, stopAllBackgroundWork } from './queue.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  stopAllBackgroundWork();
  await db?.close();
});

const cfg = readConfig({ ASSAY_DATA_DIR: tempDir(), ASSAY_JOB_STALE_SECONDS: '2', ASSAY_JOB_POLL_SECONDS: '0.1' });

/** Jobs that run until told to finish, recording what they saw. */
const gates = new Map<string, { open: () => void; done: Promise<void> }>();
const seen: { id: string; attempt: number; aborted: boolean }[] = [];
const gateJob = defineJob<{ name: string; fail?: string }, { done: number }>('test-gate', async ({ id, attempt, signal, report }, { name, fail }) => {
  const entry = { id, attempt, aborted: false };
  seen.push(entry);
  signal.addEventListener('abort', () => (entry.aborted = true));
  report({ done: 1 });
  if (fail) throw new Error(fail);
  await gates.get(name)?.done;
});
function gate(name: string) {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  gates.set(name, { open, done });
  return open;
}
const queue = (name: string, id = name, fail?: string) =>
  startJob(
    db,
    cfg,
    gateJob,
    { label: `gate ${name}`, progress: { done: 0 } },
    () => id,
    () => ({ name, ...(fail ? { fail } : {}) }),
  );
const state = async (id: string) => (await getJob(db, id))?.state;

describe('the job queue in the database', () => {
  it('runs one job at a time in the order asked, shows every waiting job, keeps progress, and does not queue a subject twice', async () => {
    const openA = gate('a');
    const openB = gate('b');
    await queue('a');
    await queue('b');
    await expect.poll(() => state('a')).toBe('running');
    const jobs = await backgroundJobs(db);
    expect(jobs.map((j) => [j.id, j.kind, j.state])).toEqual([
      ['a', 'test-gate', 'running'],
      ['b', 'test-gate', 'queued'],
    ]);
    expect(jobs[0]).toMatchObject({ owner: processOwner(), here: true, attempts: 1 });
    // Progress: what the running job reported, and what the waiting one was queued with.
    await expect.poll(() => jobProgress(db, 'a')).toEqual({ done: 1 });
    expect(await jobProgress(db, 'b')).toEqual({ done: 0 });
    // Asked again while it waits: still one job.
    await queue('b');
    expect((await backgroundJobs(db)).filter((j) => j.id === 'b')).toHaveLength(1);

    openA();
    await expect.poll(() => state('b')).toBe('running');
    expect(await state('a')).toBe('done');
    expect(await jobProgress(db, 'a')).toBeNull();
    openB();
    await expect.poll(() => state('b')).toBe('done');
    // A finished subject can be queued again (it runs again).
    gate('a');
    gates.get('a')!.open();
    await queue('a');
    await expect.poll(() => state('a')).toBe('done');
    expect(seen.filter((s) => s.id === 'a')).toHaveLength(2);
  });

  it('keeps why a job failed, and refuses a new job past its bound before creating anything', async () => {
    await queue('boom', 'boom', 'the file vanished');
    await expect.poll(() => state('boom')).toBe('failed');
    expect((await getJob(db, 'boom'))?.message).toBe('the file vanished');

    const openBlock = gate('block');
    await queue('block');
    await expect.poll(() => state('block')).toBe('running');
    for (let i = 0; i < MAX_QUEUED; i++) await queue(`w${i}`);
    let created = false;
    await expect(
      startJob(
        db,
        cfg,
        gateJob,
        { label: 'one too many' },
        () => {
          created = true;
          return 'x';
        },
        () => ({ name: 'x' }),
      ),
    ).rejects.toThrow(/jobs are already waiting/);
    expect(created).toBe(false);
    expect(await getJob(db, 'x')).toBeNull();
    openBlock();
    await expect.poll(async () => (await backgroundJobs(db)).length, { timeout: 20_000 }).toBe(0);
  });

  it('runs shard jobs after every job a user asked for, lists them last, and does not count them toward the bound', async () => {
    // Kinds this process's worker does not take, claimed here as another process would.
    await enqueueJob(db, { id: 'shard-1', kind: 'embedding-shard', label: 'shard 1', payload: {} });
    await enqueueJob(db, { id: 'asked-1', kind: 'elsewhere-kind', label: 'asked 1', payload: {} });
    expect((await backgroundJobs(db)).map((j) => j.id)).toEqual(['asked-1', 'shard-1']);
    expect((await claimJob(db, 'elsewhere:9:x', ['embedding-shard', 'elsewhere-kind'], 60))?.id).toBe('asked-1');
    expect((await claimJob(db, 'elsewhere:9:x', ['embedding-shard', 'elsewhere-kind'], 60))?.id).toBe('shard-1');
    for (let i = 0; i < MAX_QUEUED; i++) await enqueueJob(db, { id: `shard-w${i}`, kind: 'embedding-shard', label: `shard ${i}`, payload: {} });
    gate('past-shards');
    gates.get('past-shards')!.open();
    await queue('past-shards');
    await expect.poll(() => state('past-shards')).toBe('done');
    await db.prisma.job.deleteMany({ where: { kind: { in: ['embedding-shard', 'elsewhere-kind'] } } });
  });

  it('takes over a job whose process died (stale heartbeat), and puts the running job back in the queue on a stop', async () => {
    // A job another process claimed and then stopped renewing.
    await enqueueJob(db, { id: 'orphan', kind: 'test-gate', label: 'orphan', payload: { name: 'orphan' } });
    const claimed = await claimJob(db, 'elsewhere:1:dead', ['test-gate'], 60);
    expect(claimed).toMatchObject({ id: 'orphan', attempts: 1 });
    // Not stale yet: nobody else may take it.
    expect(await claimJob(db, 'another:2:live', ['test-gate'], 60)).toBeNull();
    gate('orphan');
    gates.get('orphan')!.open();
    await new Promise((r) => setTimeout(r, 2500)); // its heartbeat is now older than the stale limit (2 s)
    const openTrigger = gate('trigger');
    await queue('trigger'); // wakes this process's worker, which takes the orphan (older) first
    await expect.poll(() => state('orphan'), { timeout: 15_000 }).toBe('done');
    expect(seen.find((s) => s.id === 'orphan')?.attempt).toBe(2);
    expect((await getJob(db, 'orphan'))?.owner).toBe(processOwner());

    // A stop: the running job is asked to stop and is queued again, for this or another process to continue.
    await expect.poll(() => state('trigger'), { timeout: 15_000 }).toBe('running');
    stopAllBackgroundWork();
    expect(seen.find((s) => s.id === 'trigger')?.aborted).toBe(true);
    openTrigger();
    await expect.poll(() => activeBackgroundWork()).toBe(0);
    await expect.poll(() => state('trigger')).toBe('queued');
    expect((await getJob(db, 'trigger'))?.owner).toBeNull();
  });
});
