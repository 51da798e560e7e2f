/**
 * L2-regularised logistic regression, fitted by Newton's method (iteratively reweighted least squares) on
 * standardised features: the abstention decision's model (lib/retrieval/gate/abstention-model.ts) has a dozen or so
 * features and a couple of thousand rows, for which a few exact Newton steps beat any generic optimiser and a
 * library (none on npm is both small and maintained for this) would add more code than it saves. Standardising
 * makes one penalty fair to every feature and the weights comparable; the intercept is not penalised.
 */

export interface LogisticFit {
  /** Per-feature mean and standard deviation used to standardise (a constant feature gets scale 1). */
  mean: number[];
  scale: number[];
  /** Weights on the standardised features, and the intercept. */
  weights: number[];
  bias: number;
  /** Newton iterations until the step was below tolerance. */
  iterations: number;
}

export interface LogisticOptions {
  /** L2 penalty λ on the standardised weights (the loss is the mean log-loss + λ/2 · ‖w‖²). */
  l2: number;
  /** Weight of each row in the loss (default 1 each). */
  sampleWeights?: number[];
  maxIterations?: number;
}

export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** P(y = 1 | x) under a fitted model. */
export function predictLogistic(fit: Pick<LogisticFit, 'mean' | 'scale' | 'weights' | 'bias'>, x: number[]): number {
  let z = fit.bias;
  for (let j = 0; j < fit.weights.length; j++) z += fit.weights[j] * ((x[j] - fit.mean[j]) / fit.scale[j]);
  return sigmoid(z);
}

export function fitLogistic(rows: number[][], labels: boolean[], opts: LogisticOptions): LogisticFit {
  const n = rows.length;
  if (n === 0) throw new Error('fitLogistic: no rows');
  if (labels.length !== n) throw new Error('fitLogistic: one label per row');
  const d = rows[0].length;
  const sw = opts.sampleWeights ?? rows.map(() => 1);
  const total = sw.reduce((a, b) => a + b, 0);
  const mean = Array.from({ length: d }, (_, j) => rows.reduce((s, r, i) => s + sw[i] * r[j], 0) / total);
  const scale = Array.from({ length: d }, (_, j) => {
    const v = rows.reduce((s, r, i) => s + sw[i] * (r[j] - mean[j]) ** 2, 0) / total;
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  // Design matrix with a leading column of ones for the intercept.
  const X = rows.map((r) => [1, ...r.map((v, j) => (v - mean[j]) / scale[j])]);
  const y = labels.map((l) => (l ? 1 : 0));
  const beta = new Array(d + 1).fill(0);
  const maxIt = opts.maxIterations ?? 50;
  let iterations = 0;
  for (; iterations < maxIt; iterations++) {
    const grad = new Array(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array(d + 1).fill(0));
    for (let i = 0; i < n; i++) {
      const xi = X[i];
      let z = 0;
      for (let j = 0; j <= d; j++) z += beta[j] * xi[j];
      const p = sigmoid(z);
      const w = sw[i] / total;
      const g = w * (p - y[i]);
      const h = w * Math.max(p * (1 - p), 1e-9);
      for (let j = 0; j <= d; j++) {
        grad[j] += g * xi[j];
        const hx = h * xi[j];
        for (let k = j; k <= d; k++) hess[j][k] += hx * xi[k];
      }
    }
    for (let j = 0; j <= d; j++) for (let k = 0; k < j; k++) hess[j][k] = hess[k][j];
    for (let j = 1; j <= d; j++) {
      grad[j] += opts.l2 * beta[j];
      hess[j][j] += opts.l2;
    }
    // A tiny ridge on the intercept keeps a separable, unpenalised problem solvable.
    hess[0][0] += 1e-9;
    const step = solve(hess, grad);
    let size = 0;
    for (let j = 0; j <= d; j++) {
      beta[j] -= step[j];
      size = Math.max(size, Math.abs(step[j]));
    }
    if (size < 1e-8) {
      iterations++;
      break;
    }
  }
  return { mean, scale, weights: beta.slice(1), bias: beta[0], iterations };
}

/** Solves A·x = b for a symmetric positive-definite A (Gaussian elimination with partial pivoting). */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[pivot][c])) pivot = r;
    [M[c], M[pivot]] = [M[pivot], M[c]];
    const diag = M[c][c] || 1e-12;
    for (let r = c + 1; r < n; r++) {
      const f = M[r][c] / diag;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r][n];
    for (let k = r + 1; k < n; k++) s -= M[r][k] * x[k];
    x[r] = s / (M[r][r] || 1e-12);
  }
  return x;
}

/** A fit's parameters as saved (rounded to 1e-6: the checked-in JSON stays readable and diffs stay small). */
export function savedFit(fit: Pick<LogisticFit, 'mean' | 'scale' | 'weights' | 'bias'>): Pick<LogisticFit, 'mean' | 'scale' | 'weights' | 'bias'> {
  const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
  return { mean: fit.mean.map(round6), scale: fit.scale.map(round6), weights: fit.weights.map(round6), bias: round6(fit.bias) };
}

/** Mean log-loss of predicted probabilities (clipped away from 0 and 1). */
export function logLoss(probabilities: number[], labels: boolean[]): number {
  const eps = 1e-12;
  let s = 0;
  for (let i = 0; i < probabilities.length; i++) {
    const p = Math.min(1 - eps, Math.max(eps, probabilities[i]));
    s -= labels[i] ? Math.log(p) : Math.log(1 - p);
  }
  return probabilities.length ? s / probabilities.length : 0;
}
