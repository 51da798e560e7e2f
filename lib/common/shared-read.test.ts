import { describe, expect, it } from 'vitest';
import { sharedRead } from './shared-read.ts';

describe('sharedRead', () => {
  it('makes one read for callers that arrive while it is on its way, and a new one after it ends', async () => {
    let reads = 0;
    let release!: () => void;
    const shared = sharedRead(async () => {
      reads++;
      await new Promise<void>((r) => (release = r));
      return reads;
    });
    const a = shared.fresh();
    const b = shared.fresh();
    release();
    expect(await Promise.all([a, b])).toEqual([1, 1]);
    expect(reads).toBe(1);
    const c = shared.fresh();
    release();
    expect(await c).toBe(2);
  });

  it('gives the last answer to recent() within its age, and reads again past it', async () => {
    let clock = 0;
    let reads = 0;
    const shared = sharedRead(
      async () => ++reads,
      () => clock,
    );
    expect(await shared.fresh()).toBe(1);
    clock = 500;
    expect(await shared.recent(1000)).toBe(1);
    clock = 1600;
    expect(await shared.recent(1000)).toBe(2);
    expect(reads).toBe(2);
  });

  it('gives lately() the last answer within its age without waiting, reading again behind it', async () => {
    let clock = 0;
    let reads = 0;
    let release: () => void = () => {};
    const shared = sharedRead(
      async () => {
        const n = ++reads;
        await new Promise<void>((r) => (release = r));
        return n;
      },
      () => clock,
    );
    const first = shared.lately(500);
    release();
    expect(await first).toBe(1); // nothing known yet: waits for a read
    clock = 300;
    // The answer read at 0 at once, while a second read goes on behind it; later callers share that read.
    expect(await shared.lately(500)).toBe(1);
    expect(await shared.lately(500)).toBe(1);
    expect(reads).toBe(2);
    release();
    await Promise.resolve();
    await Promise.resolve();
    clock = 400;
    expect(await shared.lately(500)).toBe(2);
    // After a pause longer than its age, a caller waits for the read.
    clock = 2000;
    const late = shared.lately(500);
    release();
    expect(await late).toBe(3);
  });

  it('keeps no failed read: the next caller reads again', async () => {
    let reads = 0;
    const shared = sharedRead(async () => {
      reads++;
      if (reads === 1) throw new Error('database away');
      return 'stamp-2';
    });
    await expect(shared.fresh()).rejects.toThrow('database away');
    await expect(shared.recent(10_000)).resolves.toBe('stamp-2');
    expect(reads).toBe(2);
  });
});
