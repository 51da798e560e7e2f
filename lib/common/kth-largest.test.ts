import { describe, expect, it } from 'vitest';
import { kthLargest } from './kth-largest.ts';
import { seededRandom } from './random.ts';

describe('kthLargest', () => {
  it('gives what a numeric sort gives at that place, ties included', () => {
    const random = seededRandom(7);
    for (const n of [1, 2, 5, 64, 1000, 20000])
      for (const distinct of [1, 3, n]) {
        const values = Float64Array.from({ length: n }, () => Math.floor(random() * distinct) / distinct - 0.5);
        const sorted = Float64Array.from(values).sort();
        for (const k of new Set([1, 2, Math.ceil(n / 3), n].filter((k) => k <= n)))
          expect(kthLargest(Float64Array.from(values), k), `${n} values, ${distinct} distinct, k ${k}`).toBe(sorted[n - k]);
      }
  });

  it('refuses a place outside the values', () => {
    expect(() => kthLargest(new Float64Array(3), 0)).toThrow(RangeError);
    expect(() => kthLargest(new Float64Array(3), 4)).toThrow(RangeError);
  });
});
