import { describe, expect, it } from 'vitest';
import { timeSlicer } from './yield.ts';

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
});
