import { describe, expect, it } from 'vitest';
import { fitLogistic, logLoss, predictLogistic, sigmoid } from './logistic.ts';
import { seededRandom } from '../common/random.ts';

/** Rows drawn from a known logistic model: y ~ Bernoulli(σ(0.5 + 2·x0 − 1·x1)), x1 on another scale. */
function sample(n: number, seed: number) {
  const rand = seededRandom(seed);
  const rows: number[][] = [];
  const labels: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const x0 = rand() * 2 - 1;
    const x1 = rand() * 20;
    rows.push([x0, x1, 3]);
    labels.push(rand() < sigmoid(0.5 + 2 * x0 - 0.1 * x1));
  }
  return { rows, labels };
}

describe('fitLogistic', () => {
  it('recovers the coefficients of the model the data was drawn from', () => {
    const { rows, labels } = sample(20000, 7);
    const fit = fitLogistic(rows, labels, { l2: 0 });
    // Back from standardised to raw coefficients.
    const raw = fit.weights.map((w, j) => w / fit.scale[j]);
    expect(raw[0]).toBeCloseTo(2, 0);
    expect(raw[1]).toBeCloseTo(-0.1, 1);
    // A constant feature carries no weight and does not break the fit.
    expect(Math.abs(fit.weights[2])).toBeLessThan(1e-6);
    expect(predictLogistic(fit, [1, 0, 3])).toBeCloseTo(sigmoid(2.5), 1);
  });

  it('shrinks the weights as the penalty grows, and a heavy penalty predicts the base rate', () => {
    const { rows, labels } = sample(2000, 3);
    const norm = (l2: number) => Math.hypot(...fitLogistic(rows, labels, { l2 }).weights);
    expect(norm(0.01)).toBeLessThan(norm(0));
    expect(norm(1)).toBeLessThan(norm(0.01));
    const base = labels.filter(Boolean).length / labels.length;
    expect(predictLogistic(fitLogistic(rows, labels, { l2: 1e6 }), rows[0])).toBeCloseTo(base, 2);
  });

  it('stays finite on separable data when penalised, and lowers the loss of the base-rate model', () => {
    const rows = [[0], [1], [2], [3], [4], [5]];
    const labels = [false, false, false, true, true, true];
    const fit = fitLogistic(rows, labels, { l2: 0.01 });
    expect(fit.weights.every(Number.isFinite)).toBe(true);
    const p = rows.map((r) => predictLogistic(fit, r));
    expect(p[0]).toBeLessThan(0.2);
    expect(p[5]).toBeGreaterThan(0.8);
    expect(logLoss(p, labels)).toBeLessThan(
      logLoss(
        p.map(() => 0.5),
        labels,
      ),
    );
  });

  it('weights rows: a row counted twice moves the fit like a duplicate', () => {
    const { rows, labels } = sample(300, 11);
    const weighted = fitLogistic(rows, labels, { l2: 0.1, sampleWeights: rows.map((_, i) => (i === 0 ? 2 : 1)) });
    const duplicated = fitLogistic([rows[0], ...rows], [labels[0], ...labels], { l2: 0.1 });
    for (const [j, w] of weighted.weights.entries()) expect(w).toBeCloseTo(duplicated.weights[j], 6);
  });

  it('refuses an empty or mismatched training set', () => {
    expect(() => fitLogistic([], [], { l2: 0 })).toThrow(/no rows/);
    expect(() => fitLogistic([[1]], [true, false], { l2: 0 })).toThrow(/one label per row/);
  });
});
