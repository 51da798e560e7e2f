import { describe, expect, it } from 'vitest';
import { activeBackgroundWork, backgroundJobs, jobProgress, MAX_QUEUED, startJob, stopAllBackgroundWork } from './background.ts';

/** A job that runs until told to finish, recording that it started and whether it was asked to stop. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  const seen = { started: false, aborted: false };
  const work = async (_id: string, signal: AbortSignal) => {
    seen.started = true;
    signal.addEventListener('abort', () => (seen.aborted = true));
    await done;
  };
  return { work, open, seen };
}
const tick = () => new Promise((r) => setTimeout(r, 10));

describe('the job queue', () => {
  it('runs one job at a time in the order asked, shows what waits, refuses past its bound, and a stop starts nothing more', async () => {
    const a = gate();
    const b = gate();
    const c = gate();
    await startJob({ kind: 'import', label: 'papers.jsonl' }, () => 'a', a.work);
    await startJob({ kind: 'evaluation', label: 'questions × bm25' }, () => 'b', b.work);
    await startJob({ kind: 'download', label: 'starter corpus' }, () => 'c', c.work);
    await tick();
    expect(backgroundJobs().map((j) => [j.id, j.kind, j.state])).toEqual([
      ['a', 'import', 'running'],
      ['b', 'evaluation', 'queued'],
      ['c', 'download', 'queued'],
    ]);
    expect(b.seen.started).toBe(false);

    a.open();
    await tick();
    expect(backgroundJobs().map((j) => [j.id, j.state])).toEqual([
      ['b', 'running'],
      ['c', 'queued'],
    ]);

    // Bounded: MAX_QUEUED may wait; one more is refused with a clear message, and nothing of it is kept.
    const waiting = Array.from({ length: MAX_QUEUED - 1 }, (_, i) => `w${i}`);
    for (const id of waiting)
      await startJob(
        { kind: 'import', label: id },
        () => id,
        async () => {},
      );
    let created = false;
    const refused = startJob(
      { kind: 'import', label: 'x' },
      () => {
        created = true;
        return 'one-too-many';
      },
      async () => {},
    );
    await expect(refused).rejects.toThrow(/jobs are already waiting/);
    expect(created).toBe(false);
    expect(backgroundJobs().some((j) => j.id === 'one-too-many')).toBe(false);

    // A stop: the running job is asked to stop; those waiting never start.
    stopAllBackgroundWork();
    expect(b.seen.aborted).toBe(true);
    b.open();
    await tick();
    expect(c.seen.started).toBe(false);
    expect(activeBackgroundWork()).toBe(0);
  });

  it('keeps the progress a job reports while it is in the queue, and forgets it when the job leaves', async () => {
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    const id = await startJob<{ done: number }>(
      { kind: 'evaluation', label: 'p', progress: { done: 0 } },
      () => 'progress-job',
      async (_, _signal, report) => {
        report({ done: 3 });
        await done;
      },
    );
    await tick();
    expect(jobProgress(id)).toEqual({ done: 3 });
    finish();
    await tick();
    expect(jobProgress(id)).toBeNull();
  });
});
