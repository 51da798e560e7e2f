import type { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RetrievalResult } from '../pipelines/types.ts';
import { type WatchedSlot, workerWatchdog } from './worker-watchdog.ts';

/** A worker the test plays: it answers pings when `free`. */
function fakeSlot(over: Partial<WatchedSlot & { free: boolean }> = {}): WatchedSlot & { free: boolean } {
  return { worker: {} as Worker, pending: new Map(), ready: true, building: 0, heard: Date.now(), pongs: new Map(), retired: false, free: true, ...over };
}

function setup() {
  const replaced: WatchedSlot[] = [];
  let id = 1000;
  const watchdog = workerWatchdog(
    { graceMs: 100, pingMs: 200 },
    {
      serving: (s) => !s.retired,
      replace: (s) => {
        s.retired = true;
        replaced.push(s);
      },
      // A free thread answers on its next turn; a held one never does.
      ping: (s, pingId) => {
        if ((s as ReturnType<typeof fakeSlot>).free) setTimeout(() => s.pongs.get(pingId)?.(), 1);
      },
      nextId: () => id++,
    },
  );
  /** A question sent to `slot` with a deadline 1 s away, and what became of it. */
  const ask = (slot: WatchedSlot, qid: number) => {
    const outcome: { error?: Error; result?: RetrievalResult } = {};
    slot.pending.set(qid, { resolve: (r) => (outcome.result = r), reject: (e) => (outcome.error = e) });
    const unwatch = watchdog.watch(slot, qid, { at: Date.now() + 1000, budgetMs: 1000 });
    return { outcome, unwatch };
  };
  return { replaced, ask };
}

describe('the retrieval workers’ watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a question its worker overruns with the over-budget error and leaves a worker that answers its ping', async () => {
    const { replaced, ask } = setup();
    const slot = fakeSlot();
    const { outcome } = ask(slot, 1);
    await vi.advanceTimersByTimeAsync(1099);
    expect(outcome.error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.error?.message).toMatch(/took too long to analyse \(over its 1 s budget\)/);
    expect(slot.pending.size).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(replaced).toEqual([]);
  });

  it('replaces a worker whose thread does not answer its ping', async () => {
    const { replaced, ask } = setup();
    const slot = fakeSlot({ free: false });
    const { outcome } = ask(slot, 1);
    await vi.advanceTimersByTimeAsync(1100);
    expect(outcome.error?.message).toMatch(/took too long/);
    expect(replaced).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(replaced).toEqual([slot]);
  });

  it('does not watch a question answered in time', async () => {
    const { replaced, ask } = setup();
    const slot = fakeSlot({ free: false });
    const { outcome, unwatch } = ask(slot, 1);
    await vi.advanceTimersByTimeAsync(500);
    unwatch();
    slot.pending.delete(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(outcome.error).toBeUndefined();
    expect(replaced).toEqual([]);
  });

  it('spares a worker building a part of its index while it keeps talking, and replaces it once it has finished and is still held', async () => {
    const { replaced, ask } = setup();
    const slot = fakeSlot({ free: false, building: 1 });
    const { outcome } = ask(slot, 1);
    await vi.advanceTimersByTimeAsync(1100);
    expect(outcome.error?.message).toMatch(/still being built .* please ask again/);
    await vi.advanceTimersByTimeAsync(200 * 5);
    expect(replaced).toEqual([]);
    slot.building = 0;
    await vi.advanceTimersByTimeAsync(200 * 3);
    expect(replaced).toEqual([slot]);
  });

  it('a worker still reading its index (a replacement) is not pinged: its question is told to ask again', async () => {
    const { replaced, ask } = setup();
    const slot = fakeSlot({ ready: false, free: false });
    const { outcome } = ask(slot, 1);
    await vi.advanceTimersByTimeAsync(1100 + 1000);
    expect(outcome.error?.message).toMatch(/starting again .* please ask again/);
    expect(replaced).toEqual([]);
  });
});
