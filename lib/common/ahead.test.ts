import { describe, expect, it } from 'vitest';
import { startedNow } from './ahead.ts';

describe('startedNow', () => {
  it('starts the work at once and gives its value when awaited', async () => {
    const order: string[] = [];
    const wait = startedNow(async () => {
      order.push('started');
      return 42;
    });
    order.push('after the call');
    expect(order).toEqual(['started', 'after the call']);
    expect(await wait()).toBe(42);
    expect(await wait()).toBe(42);
  });

  it('keeps a failure until it is awaited, without an unhandled rejection in between', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const wait = startedNow(async () => {
        throw new Error('the write failed');
      });
      // Other work goes on for several turns of the event loop before the outcome is asked for.
      for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 5));
      await expect(wait()).rejects.toThrow('the write failed');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
