import { describe, expect, it } from 'vitest';
import { cohenKappa, cohenKappaQuadratic, fleissKappa, krippendorffAlpha } from './agreement.ts';

describe('agreement statistics against textbook examples', () => {
  it("Fleiss' κ: the 10 subjects × 14 raters × 5 categories example (Fleiss 1971, as on Wikipedia) is 0.210", () => {
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    expect(fleissKappa(table)).toBeCloseTo(0.21, 3);
    expect(() =>
      fleissKappa([
        [1, 1],
        [3, 0],
      ]),
    ).toThrow(/same number/);
  });

  it("Krippendorff's α: his reliability-data example (4 coders, 12 units, missing values) is 0.849 interval and 0.743 nominal", () => {
    const coders: (number | null)[][] = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
      [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
    ];
    const units = coders[0].map((_, u) => coders.map((c) => c[u]).filter((v): v is number => v !== null));
    expect(krippendorffAlpha(units, 'interval')).toBeCloseTo(0.849, 3);
    expect(krippendorffAlpha(units, 'nominal')).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha([[3], [4]])).toBeNull(); // no unit rated twice: nothing to agree on
  });

  it("quadratic-weighted Cohen's κ equals 2·cov / (var + var + (mean difference)²) (Cohen 1968) and is 1 for identical raters", () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const a = Array.from({ length: 40 }, () => Math.floor(rand() * 11));
    const b = a.map((x) => Math.max(0, Math.min(10, x + Math.floor(rand() * 5) - 2)));
    const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
    const [ma, mb] = [mean(a), mean(b)];
    const cov = mean(a.map((x, i) => (x - ma) * (b[i] - mb)));
    const va = mean(a.map((x) => (x - ma) ** 2));
    const vb = mean(b.map((x) => (x - mb) ** 2));
    expect(cohenKappaQuadratic(a, b, 0, 10)).toBeCloseTo((2 * cov) / (va + vb + (ma - mb) ** 2), 10);
    expect(cohenKappaQuadratic([0, 3, 5], [0, 3, 5], 0, 5)).toBe(1);
    expect(cohenKappaQuadratic([2, 2], [2, 2], 0, 5)).toBeNull();
    expect(() => cohenKappaQuadratic([6, 1], [1, 1], 0, 5)).toThrow(/outside/);
  });

  it("unweighted Cohen's κ: the 50-item yes/no example (Wikipedia) is 0.4", () => {
    // 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no.
    const a = [...Array(20).fill('y'), ...Array(5).fill('y'), ...Array(10).fill('n'), ...Array(15).fill('n')];
    const b = [...Array(20).fill('y'), ...Array(5).fill('n'), ...Array(10).fill('y'), ...Array(15).fill('n')];
    expect(cohenKappa(a, b)).toBeCloseTo(0.4, 10);
  });
});
