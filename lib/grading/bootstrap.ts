/**
 * Seeded, paired bootstrap confidence intervals. Paired by question: one resample of the questions is used for
 * every pipeline at once, so the interval of a difference between two pipelines reflects that they answered the
 * same questions. Seeded, so the same grades always give the same intervals.
 */
import { seededRandom } from '../common/random.ts';

export interface Interval {
  mean: number;
  low: number;
  high: number;
  n: number;
}

const quantile = (sorted: number[], q: number) => {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
};

/**
 * `table[question][series]`: each question's score per series (a pipeline, or a difference), null when that series
 * has none for the question. Returns per series the mean over its questions and the percentile interval at `level`
 * over `resamples` paired resamples of the questions.
 */
export function pairedBootstrap(table: (number | null)[][], opts: { resamples?: number; level?: number; seed?: number } = {}): (Interval | null)[] {
  const { resamples = 2000, level = 0.95, seed = 1 } = opts;
  const series = table[0]?.length ?? 0;
  const meanOf = (rows: (number | null)[][], s: number) => {
    let sum = 0;
    let n = 0;
    for (const r of rows)
      if (r[s] !== null) {
        sum += r[s] as number;
        n++;
      }
    return n ? sum / n : null;
  };
  const random = seededRandom(seed);
  const samples: number[][] = Array.from({ length: series }, () => []);
  for (let b = 0; b < resamples; b++) {
    const rows = Array.from({ length: table.length }, () => table[Math.floor(random() * table.length)]);
    for (let s = 0; s < series; s++) {
      const m = meanOf(rows, s);
      if (m !== null) samples[s].push(m);
    }
  }
  return Array.from({ length: series }, (_, s) => {
    const mean = meanOf(table, s);
    if (mean === null) return null;
    const sorted = samples[s].sort((x, y) => x - y);
    const n = table.filter((r) => r[s] !== null).length;
    return { mean, low: quantile(sorted, (1 - level) / 2), high: quantile(sorted, 1 - (1 - level) / 2), n };
  });
}
