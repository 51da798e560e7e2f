import { describe, expect, it } from 'vitest';
import { auroc, expectedCalibrationError, reliabilityTable } from './calibration.ts';

const pts = (list: [number, boolean][]) => list.map(([confidence, correct]) => ({ confidence, correct }));

describe('calibration', () => {
  it('measures the calibration error of a reliability table', () => {
    const perfect = pts([
      [0.95, true],
      [0.95, true],
      [0.05, false],
      [0.05, false],
    ]);
    expect(expectedCalibrationError(perfect)).toBeCloseTo(0.05, 5);
    const overconfident = pts([
      [1, false],
      [1, false],
    ]);
    expect(expectedCalibrationError(overconfident)).toBe(1);
    const table = reliabilityTable(
      pts([
        [0.91, true],
        [0.92, false],
      ]),
    );
    expect(table[9]).toMatchObject({ n: 2, accuracy: 0.5 });
  });
});

describe('auroc', () => {
  it('is 1 when every right answer is more confident than every wrong one, ½ for no separation, null without both', () => {
    expect(
      auroc([
        { confidence: 0.9, correct: true },
        { confidence: 0.2, correct: false },
      ]),
    ).toBe(1);
    expect(
      auroc([
        { confidence: 0.5, correct: true },
        { confidence: 0.5, correct: false },
      ]),
    ).toBe(0.5);
    expect(
      auroc([
        { confidence: 0.3, correct: true },
        { confidence: 0.8, correct: false },
        { confidence: 0.9, correct: true },
      ]),
    ).toBe(0.5);
    expect(auroc([{ confidence: 0.9, correct: true }])).toBeNull();
  });
});
