import { describe, expect, it } from 'vitest';
import { classificationReport, entityReport } from './classification-metrics.ts';

describe('classificationReport', () => {
  it('computes accuracy, per-class precision/recall/F1 and macro-F1 on a hand-checked example', () => {
    // gold:      a a a b b c
    // predicted: a a b b c c
    const r = classificationReport(['a', 'a', 'a', 'b', 'b', 'c'], ['a', 'a', 'b', 'b', 'c', 'c']);
    expect(r.n).toBe(6);
    expect(r.accuracy).toBeCloseTo(4 / 6);
    expect(r.per_class.a).toEqual({ precision: 1, recall: 2 / 3, f1: 0.8, support: 3 });
    expect(r.per_class.b.precision).toBeCloseTo(0.5);
    expect(r.per_class.b.recall).toBeCloseTo(0.5);
    expect(r.per_class.c).toMatchObject({ precision: 0.5, recall: 1, support: 1 });
    expect(r.per_class.c.f1).toBeCloseTo(2 / 3);
    expect(r.macro_f1).toBeCloseTo((0.8 + 0.5 + 2 / 3) / 3);
  });
  it('ignores labels that were only predicted when averaging', () => {
    const r = classificationReport(['a', 'a'], ['a', 'z']);
    expect(r.per_class.z).toMatchObject({ precision: 0, support: 0 });
    expect(r.macro_f1).toBeCloseTo(f1(1, 0.5));
  });
});

describe('entityReport', () => {
  it('matches entities by type and key and sums counts over documents (micro)', () => {
    const r = entityReport([
      {
        gold: [
          { type: 'TARGET', key: 'nio' },
          { type: 'SOLVENT', key: 'water' },
        ],
        predicted: [
          { type: 'TARGET', key: 'nio' },
          { type: 'SOLVENT', key: 'ethanol' },
        ],
      },
      { gold: [{ type: 'TARGET', key: 'coo' }], predicted: [{ type: 'PRECURSOR', key: 'coo' }] },
    ]);
    // tp=1 (TARGET nio), fp=2 (SOLVENT ethanol, PRECURSOR coo), fn=2 (SOLVENT water, TARGET coo)
    expect(r.micro_f1).toBeCloseTo(f1(1 / 3, 1 / 3));
    expect(r.per_class.TARGET).toMatchObject({ precision: 1, recall: 0.5, support: 2 });
    expect(r.per_class.PRECURSOR).toMatchObject({ precision: 0, support: 0 });
  });
});

function f1(p: number, r: number) {
  return (2 * p * r) / (p + r);
}
