import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { claimJob, endJob, getJob } from '../db/jobs.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { defineJob, queueShardJobs } from './queue.ts';
import { runStageShards } from './stage-shards.ts';

/**
 * A stage's coordinator (lib/queue/stage-shards.ts) in one process: it runs every shard no other process holds,
 * waits for those one does, takes over a dead process's, and a stop leaves the shard it was running queued for the
 * next run. lib/jobs/stage-shards.db.test.ts runs real stages, beside a worker process on PostgreSQL.
 */
let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

const cfg = readConfig({ ASSAY_DATA_DIR: tempDir(), ASSAY_JOB_STALE_SECONDS: '2', ASSAY_JOB_POLL_SECONDS: '0.1' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A shard that reports its square, fails when asked to, or on its first attempt waits until its stage is stopped. */
const runs: string[] = [];
const squareJob = defineJob<{ n: number; fail?: boolean; hang?: boolean }, { square: number }>(
  'test-square-shard',
  async ({ id, attempt, signal, report }, { n, fail, hang }) => {
    runs.push(id);
    if (fail) throw new Error(`shard ${n} cannot be done`);
    while (hang && attempt === 1 && !signal.aborted) await sleep(20);
    report({ square: n * n });
  },
);
const shards = (set: string, ns: number[], extra: Record<number, { fail?: boolean; hang?: boolean }> = {}) =>
  ns.map((n) => ({ id: `${set}:${n}`, label: `square ${n}`, input: { n, ...extra[n] } }));

describe('a stage run as shards', () => {
  it('runs every shard in the coordinator when no other process takes any, each once, with what each reported', async () => {
    runs.length = 0;
    const progress: string[] = [];
    const out = await runStageShards(db, cfg, squareJob, shards('alone', [1, 2, 3, 4]), {
      onProgress: (p) => void progress.push(`${p.ended}/${p.total}/${p.elsewhere}`),
    });
    expect(out.interrupted).toBe(false);
    expect(out.failed).toEqual([]);
    expect(out.done.map((d) => [d.id, d.progress?.square, d.here])).toEqual([
      ['alone:1', 1, true],
      ['alone:2', 4, true],
      ['alone:3', 9, true],
      ['alone:4', 16, true],
    ]);
    expect(runs.sort()).toEqual(['alone:1', 'alone:2', 'alone:3', 'alone:4']);
    expect(progress).toEqual(['1/4/0', '2/4/0', '3/4/0', '4/4/0']);
  });

  it('says which shard failed and why, and still runs the others', async () => {
    const out = await runStageShards(db, cfg, squareJob, shards('failing', [1, 2, 3], { 2: { fail: true } }));
    expect(out.done.map((d) => d.id)).toEqual(['failing:1', 'failing:3']);
    expect(out.failed).toEqual([{ id: 'failing:2', message: 'shard 2 cannot be done' }]);
  });

  it('waits for a shard a live process holds, and counts it as done elsewhere', async () => {
    const set = shards('shared', [1, 2, 3]);
    await queueShardJobs(db, squareJob, set);
    const other = 'other-host:1:abc';
    const held = await claimJob(db, other, [squareJob.kind], 60, ['shared:2']);
    expect(held?.id).toBe('shared:2');
    let finished = false;
    const running = runStageShards(db, cfg, squareJob, set).then((r) => {
      finished = true;
      return r;
    });
    await sleep(800);
    // The coordinator has done its two and waits on the other process's (whose heartbeat is fresh).
    expect(finished).toBe(false);
    expect((await getJob(db, 'shared:1'))?.state).toBe('done');
    await endJob(db, 'shared:2', other, { state: 'done' });
    const out = await running;
    expect(out.done.map((d) => [d.id, d.here])).toEqual([
      ['shared:1', true],
      ['shared:2', false],
      ['shared:3', true],
    ]);
  });

  it('runs a shard another process failed (refused, say) once more itself', async () => {
    const set = shards('refused', [1, 2, 3]);
    await queueShardJobs(db, squareJob, set);
    const other = 'other-host:2:def';
    await claimJob(db, other, [squareJob.kind], 60, ['refused:2']);
    runs.length = 0;
    const running = runStageShards(db, cfg, squareJob, set);
    while ((await getJob(db, 'refused:3'))?.state !== 'done') await sleep(20);
    await endJob(db, 'refused:2', other, { state: 'failed', message: 'this process structures paragraphs otherwise' });
    const out = await running;
    expect(out.failed).toEqual([]);
    expect(out.done.map((d) => [d.id, d.here, d.progress?.square])).toEqual([
      ['refused:1', true, 1],
      ['refused:2', true, 4],
      ['refused:3', true, 9],
    ]);
    expect(runs.sort()).toEqual(['refused:1', 'refused:2', 'refused:3']);
  });

  it('takes over the shard of a process that died (its heartbeat went stale)', async () => {
    const set = shards('orphaned', [1, 2]);
    await queueShardJobs(db, squareJob, set);
    await claimJob(db, 'dead-host:1:abc', [squareJob.kind], 60, ['orphaned:1']);
    const out = await runStageShards(db, cfg, squareJob, set);
    expect(out.done.map((d) => [d.id, d.here, d.progress?.square])).toEqual([
      ['orphaned:1', true, 1],
      ['orphaned:2', true, 4],
    ]);
    expect((await getJob(db, 'orphaned:1'))?.attempts).toBe(2);
  });

  it('stopped, puts the shard it was running back in the queue; the next run finishes the stage', async () => {
    const controller = new AbortController();
    const set = shards('stopped', [1, 2, 3], { 2: { hang: true } });
    const first = runStageShards(db, cfg, squareJob, set, { signal: controller.signal });
    while ((await getJob(db, 'stopped:2'))?.state !== 'running') await sleep(20);
    controller.abort(new Error('the server is stopping'));
    const out = await first;
    expect(out.interrupted).toBe(true);
    expect(out.done.map((d) => d.id)).toEqual(['stopped:1']);
    expect((await getJob(db, 'stopped:2'))?.state).toBe('queued');
    expect((await getJob(db, 'stopped:3'))?.state).toBe('queued');
    // Resumed: the queued shards keep what they were queued with, and the stopped one runs to its end this time.
    const again = await runStageShards(db, cfg, squareJob, set);
    expect(again.interrupted).toBe(false);
    expect(again.done.map((d) => d.id)).toEqual(['stopped:1', 'stopped:2', 'stopped:3']);
    expect((await getJob(db, 'stopped:2'))?.attempts).toBe(2);
  });
});
