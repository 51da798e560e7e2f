import { describe, expect, it } from 'vitest';
import { inForeground, timeSlicer } from './yield.ts';

function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* spin */
  }
}

describe('timeSlicer', () => {
  it('lets a timer run in the middle of a long loop instead of after it', async () => {
    const slice = timeSlicer(10);
    let timerAt = -1;
    let iteration = 0;
    setTimeout(() => {
      timerAt = iteration;
    }, 0);
    for (iteration = 0; iteration < 40; iteration++) {
      busy(2);
      await slice();
    }
    // 80 ms of work in 10 ms slices: the timer ran after the first slice, long before the loop's end.
    expect(timerAt).toBeGreaterThan(0);
    expect(timerAt).toBeLessThan(20);
  });

  it('does not yield to the event loop before a slice is used up', async () => {
    const slice = timeSlicer(1000);
    let fired = false;
    setImmediate(() => {
      fired = true;
    });
    for (let i = 0; i < 100; i++) await slice();
    expect(fired).toBe(false);
  });

  it('gives way to a question being retrieved for up to 20 ms a slice, goes on when it ends, and never waits within one', async () => {
    let endQuestion: () => void = () => {};
    const question = inForeground(() => new Promise<void>((r) => (endQuestion = r)));
    // A slice used up while the question runs waits (timers are never early, so this holds on a busy machine).
    const slice = timeSlicer(10);
    busy(11);
    const t0 = performance.now();
    await slice();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(15);
    // The next one goes on as soon as the question ends.
    const order: string[] = [];
    busy(11);
    const waiting = slice().then(() => order.push('work resumed'));
    await new Promise((r) => setImmediate(r));
    order.push('question ended');
    endQuestion();
    await question;
    await waiting;
    expect(order).toEqual(['question ended', 'work resumed']);
    // Work run for a question itself (a graph index built on its first use) does not wait for the questions.
    let endOther: () => void = () => {};
    const other = inForeground(() => new Promise<void>((r) => (endOther = r)));
    const within = await inForeground(async () => {
      const mine = timeSlicer(10);
      busy(11);
      return Promise.race([mine().then(() => 'went on'), new Promise((r) => setTimeout(() => r('waited'), 15))]);
    });
    endOther();
    await other;
    expect(within).toBe('went on');
  });
});
