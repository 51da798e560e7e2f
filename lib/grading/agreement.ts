/**
 * Inter-rater agreement: quadratic-weighted Cohen's κ (two raters, ordered scores), Fleiss' κ (many raters,
 * categories, the same number of ratings per unit) and Krippendorff's α (interval or nominal, any number of raters,
 * missing ratings allowed). No maintained npm package computes the first two; these are small and checked against
 * textbook examples in agreement.test.ts. Each returns null when agreement is undefined (too few data, or no
 * variation at all to agree on).
 */

/** Quadratic-weighted Cohen's κ for paired integer scores on [min, max]. */
export function cohenKappaQuadratic(a: number[], b: number[], min: number, max: number): number | null {
  if (a.length !== b.length) throw new Error('two raters need the same number of ratings');
  const n = a.length;
  const k = max - min + 1;
  if (n < 2 || k < 2) return null;
  const observed = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const rowSum = new Array<number>(k).fill(0);
  const colSum = new Array<number>(k).fill(0);
  for (let i = 0; i < n; i++) {
    const x = a[i] - min;
    const y = b[i] - min;
    if (!(x >= 0 && x < k && y >= 0 && y < k) || !Number.isInteger(x) || !Number.isInteger(y)) throw new Error(`score outside ${min}–${max}`);
    observed[x][y]++;
    rowSum[x]++;
    colSum[y]++;
  }
  let num = 0;
  let den = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const w = ((i - j) * (i - j)) / ((k - 1) * (k - 1));
      num += w * observed[i][j];
      den += (w * rowSum[i] * colSum[j]) / n;
    }
  return den === 0 ? null : 1 - num / den;
}

/** Unweighted Cohen's κ for two raters' nominal labels. */
export function cohenKappa(a: string[], b: string[]): number | null {
  if (a.length !== b.length) throw new Error('two raters need the same number of ratings');
  const n = a.length;
  if (n < 2) return null;
  const labels = [...new Set([...a, ...b])];
  let agree = 0;
  for (let i = 0; i < n; i++) if (a[i] === b[i]) agree++;
  const po = agree / n;
  const pe = labels.reduce((s, l) => s + (a.filter((x) => x === l).length / n) * (b.filter((x) => x === l).length / n), 0);
  return pe === 1 ? null : (po - pe) / (1 - pe);
}

/**
 * Fleiss' κ from a count table: counts[unit][category] = how many raters put the unit in that category. Every unit
 * must have the same number of ratings (units with another count should be left out by the caller).
 */
export function fleissKappa(counts: number[][]): number | null {
  const N = counts.length;
  if (N < 2) return null;
  const n = counts[0].reduce((s, x) => s + x, 0);
  if (n < 2) return null;
  if (counts.some((row) => row.reduce((s, x) => s + x, 0) !== n)) throw new Error('Fleiss κ needs the same number of ratings per unit');
  const k = counts[0].length;
  const p = new Array<number>(k).fill(0);
  let pBar = 0;
  for (const row of counts) {
    row.forEach((x, j) => {
      p[j] += x;
    });
    pBar += (row.reduce((s, x) => s + x * x, 0) - n) / (n * (n - 1));
  }
  pBar /= N;
  const pe = p.reduce((s, x) => s + (x / (N * n)) ** 2, 0);
  return pe === 1 ? null : (pBar - pe) / (1 - pe);
}

/**
 * Krippendorff's α. `units[u]` holds the ratings of unit u (one per rater who rated it; raters who did not are
 * simply absent). Units with fewer than two ratings carry no information and are skipped. `interval` uses the
 * squared difference, `nominal` disagreement when the values differ.
 */
export function krippendorffAlpha(units: number[][], level: 'interval' | 'nominal' = 'interval'): number | null {
  const delta = level === 'interval' ? (x: number, y: number) => (x - y) ** 2 : (x: number, y: number) => (x === y ? 0 : 1);
  const pairable = units.filter((u) => u.length >= 2);
  const n = pairable.reduce((s, u) => s + u.length, 0);
  if (n < 2) return null;
  // Observed disagreement: within units, each pair weighted 1/(m_u − 1).
  let dObserved = 0;
  for (const u of pairable) {
    let s = 0;
    for (let i = 0; i < u.length; i++) for (let j = 0; j < u.length; j++) if (i !== j) s += delta(u[i], u[j]);
    dObserved += s / (u.length - 1);
  }
  dObserved /= n;
  // Expected disagreement: between all pairable values.
  const values = pairable.flat();
  let dExpected = 0;
  for (let i = 0; i < values.length; i++) for (let j = 0; j < values.length; j++) if (i !== j) dExpected += delta(values[i], values[j]);
  dExpected /= n * (n - 1);
  return dExpected === 0 ? null : 1 - dObserved / dExpected;
}
