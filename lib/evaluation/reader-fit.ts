import { seededRandom } from '../common/random.ts';
import type { ReaderModel } from '../retrieval/reader.ts';

/**
 * Fits the question reader (lib/retrieval/reader.ts): a softmax regression over sparse binary features, with an L2
 * penalty, by full-batch Adam. Hand-written like lib/evaluation/logistic.ts: a few thousand questions and some
 * thousands of features fit in a second this way, and no maintained npm learner takes sparse string features
 * without first densifying them (thousands of columns per row).
 */

export interface ReaderExample {
  features: string[];
  intent: string;
}

export interface ReaderFitOptions {
  /** L2 penalty on the weights (not the biases), per example. */
  l2?: number;
  epochs?: number;
  rate?: number;
  /** A feature enters the model when at least this many training questions have it. */
  minCount?: number;
  seed?: number;
}

export function fitReader(examples: ReaderExample[], intents: readonly string[], opts: ReaderFitOptions = {}): ReaderModel {
  const { l2 = 1e-2, epochs = 150, rate = 0.05, minCount = 2, seed = 81 } = opts;
  const K = intents.length;
  const counts = new Map<string, number>();
  for (const e of examples) for (const f of e.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const vocabulary = [...counts].filter(([, n]) => n >= minCount).map(([f]) => f);
  const index = new Map(vocabulary.map((f, i) => [f, i]));
  const rows = examples.map((e) => ({ x: e.features.map((f) => index.get(f)).filter((i): i is number => i !== undefined), y: intents.indexOf(e.intent) }));
  if (rows.some((r) => r.y < 0)) throw new Error('fitReader: an example of an intent not in the list');
  const V = vocabulary.length;
  // Small random weights break the symmetry between intents' rows.
  const rnd = seededRandom(seed);
  const w = Float64Array.from({ length: V * K }, () => (rnd() - 0.5) * 0.01);
  const b = new Float64Array(K);
  const m = new Float64Array(V * K + K);
  const v = new Float64Array(V * K + K);
  const grad = new Float64Array(V * K + K);
  const n = rows.length;
  const z = new Float64Array(K);
  for (let epoch = 1; epoch <= epochs; epoch++) {
    grad.fill(0);
    for (const r of rows) {
      for (let k = 0; k < K; k++) z[k] = b[k];
      for (const i of r.x) for (let k = 0; k < K; k++) z[k] += w[i * K + k];
      let max = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < K; k++) max = Math.max(max, z[k]);
      let sum = 0;
      for (let k = 0; k < K; k++) sum += z[k] = Math.exp(z[k] - max);
      for (let k = 0; k < K; k++) {
        const d = (z[k] / sum - (k === r.y ? 1 : 0)) / n;
        for (const i of r.x) grad[i * K + k] += d;
        grad[V * K + k] += d;
      }
    }
    for (let j = 0; j < V * K; j++) grad[j] += l2 * w[j];
    // Adam, bias-corrected.
    const c1 = 1 - 0.9 ** epoch;
    const c2 = 1 - 0.999 ** epoch;
    for (let j = 0; j < V * K + K; j++) {
      m[j] = 0.9 * m[j] + 0.1 * grad[j];
      v[j] = 0.999 * v[j] + 0.001 * grad[j] * grad[j];
      const step = (rate * (m[j] / c1)) / (Math.sqrt(v[j] / c2) + 1e-8);
      if (j < V * K) w[j] -= step;
      else b[j - V * K] -= step;
    }
  }
  // Kept: features whose weights say something, rounded (the model is a file in the repository).
  const weights: Record<string, number[]> = {};
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  for (let i = 0; i < V; i++) {
    const row = Array.from(w.subarray(i * K, i * K + K));
    if (Math.max(...row.map(Math.abs)) >= 0.02) weights[vocabulary[i]] = row.map(round);
  }
  return { intents: [...intents], bias: Array.from(b, round), weights };
}
