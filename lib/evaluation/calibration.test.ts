import { describe, expect, it } from 'vitest';
import { applyCalibration } from '../retrieval/calibration.ts';
import { expectedCalibrationError, fitIsotonic, reliabilityTable } from './calibration.ts';

const pts = (list: [number, boolean][]) => list.map(([confidence, correct]) => ({ confidence, correct }));

describe('calibration', () => {
  it('fits a monotone map that pools violators', () => {
    const map = fitIsotonic(
      pts([
        [0.1, false],
        [0.2, true],
        [0.3, false],
        [0.6, true],
        [0.9, true],
        [0.9, false],
        [1, true],
      ]),
    );
    for (let i = 1; i < map.y.length; i++) expect(map.y[i]).toBeGreaterThanOrEqual(map.y[i - 1]);
    expect(applyCalibration(map, 0.05)).toBe(0);
    // 0.2 (right) and 0.3 (wrong) pool to 0.5.
    expect(applyCalibration(map, 0.25)).toBe(0.5);
    expect(applyCalibration(map, 1)).toBeGreaterThan(applyCalibration(map, 0.25));
  });

  it('is monotone on any input', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const points = Array.from({ length: 500 }, () => {
      const c = rand();
      return { confidence: Math.round(c * 20) / 20, correct: rand() < c };
    });
    const map = fitIsotonic(points);
    let last = -1;
    for (let c = 0; c <= 1; c += 0.01) {
      const y = applyCalibration(map, c);
      expect(y).toBeGreaterThanOrEqual(last);
      last = y;
    }
  });

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
