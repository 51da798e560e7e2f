import { describe, expect, it } from 'vitest';
import { activeBackgroundWork, backgroundJobs, MAX_QUEUED, startTracked, stopAllBackgroundWork } from './background.ts';

/** A job that runs until told to finish, recording that it started and whether it was asked to stop. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  const seen = { started: false, aborted: false };
  const work = async (signal: AbortSignal) => {
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
    startTracked('a', a.work, { kind: 'import', label: 'papers.jsonl' });
    startTracked('b', b.work, { kind: 'evaluation', label: 'questions × bm25' });
    startTracked('c', c.work, { kind: 'download', label: 'starter corpus' });
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
    for (const id of waiting) startTracked(id, async () => {}, { kind: 'import', label: id });
    expect(() => startTracked('one-too-many', async () => {}, { kind: 'import', label: 'x' })).toThrow(/jobs are already waiting/);
    expect(backgroundJobs().some((j) => j.id === 'one-too-many')).toBe(false);

    // A stop: the running job is asked to stop; those waiting never start.
    stopAllBackgroundWork();
    expect(b.seen.aborted).toBe(true);
    b.open();
    await tick();
    expect(c.seen.started).toBe(false);
    expect(activeBackgroundWork()).toBe(0);
  });
});
