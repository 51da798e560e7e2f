import { describe, expect, it } from 'vitest';
import { seededRandom } from '../common/random.ts';
import { pairedBootstrap } from './bootstrap.ts';

describe('paired bootstrap', () => {
  it('is reproducible for a seed and brackets the mean', () => {
    const table = Array.from({ length: 30 }, (_, i) => [i % 5, (i % 5) + 1]);
    const a = pairedBootstrap(table, { seed: 3 });
    expect(pairedBootstrap(table, { seed: 3 })).toEqual(a);
    expect(a[0]!.mean).toBeCloseTo(2, 10);
    expect(a[0]!.low).toBeLessThan(2);
    expect(a[0]!.high).toBeGreaterThan(2);
    expect(a[1]!.mean - a[0]!.mean).toBeCloseTo(1, 10);
  });

  it('pairs by question: a constant difference has a zero-width interval even when scores vary a lot', () => {
    const r = seededRandom(9);
    const table = Array.from({ length: 40 }, () => {
      const x = Math.floor(r() * 11);
      return [x, x + 2, 2];
    });
    const [, , diff] = pairedBootstrap(table);
    expect(diff).toMatchObject({ mean: 2, low: 2, high: 2, n: 40 });
  });

  it('skips missing scores and gives null for a series with none', () => {
    const out = pairedBootstrap([
      [1, null],
      [3, null],
    ]);
    expect(out[0]!.n).toBe(2);
    expect(out[1]).toBeNull();
  });
});
