import { describe, expect, it } from 'vitest';
import { expectedCalibrationError, reliabilityTable } from './calibration.ts';

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
