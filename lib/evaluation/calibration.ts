/**
 * How well a confidence means what it says: the reliability table and the expected calibration error (ECE) of
 * the abstention model's probability (`npm run calibrate`).
 */

export interface CalibrationPoint {
  /** Confidence before calibration. */
  confidence: number;
  /** Whether the answer was right (the right paper named, or an abstention on an unanswerable question). */
  correct: boolean;
}

export interface ReliabilityBin {
  from: number;
  to: number;
  n: number;
  meanConfidence: number | null;
  accuracy: number | null;
}

/** Confidence bins (equal width) with the mean confidence and the observed accuracy in each. */
export function reliabilityTable(points: CalibrationPoint[], bins = 10): ReliabilityBin[] {
  const out: ReliabilityBin[] = Array.from({ length: bins }, (_, i) => ({ from: i / bins, to: (i + 1) / bins, n: 0, meanConfidence: 0, accuracy: 0 }));
  for (const p of points) {
    const b = out[Math.min(bins - 1, Math.max(0, Math.floor(p.confidence * bins)))];
    b.n += 1;
    b.meanConfidence! += p.confidence;
    b.accuracy! += p.correct ? 1 : 0;
  }
  for (const b of out) {
    b.meanConfidence = b.n ? b.meanConfidence! / b.n : null;
    b.accuracy = b.n ? b.accuracy! / b.n : null;
  }
  return out;
}

/** Expected calibration error: the bins' |accuracy − mean confidence|, weighted by their share of the points. */
export function expectedCalibrationError(points: CalibrationPoint[], bins = 10): number {
  if (points.length === 0) return 0;
  return reliabilityTable(points, bins).reduce((e, b) => (b.n ? e + (b.n / points.length) * Math.abs(b.accuracy! - b.meanConfidence!) : e), 0);
}

/**
 * How well the confidence separates right answers from wrong ones: the probability that a right answer is shown at a
 * higher confidence than a wrong one (area under the ROC curve; ties count half). Null without both kinds.
 */
export function auroc(points: CalibrationPoint[]): number | null {
  const right = points.filter((p) => p.correct).map((p) => p.confidence);
  const wrong = points.filter((p) => !p.correct).map((p) => p.confidence);
  if (!right.length || !wrong.length) return null;
  // Rank-sum (Mann–Whitney U) with mid-ranks for ties.
  const all = [...right.map((c) => ({ c, r: true })), ...wrong.map((c) => ({ c, r: false }))].sort((a, b) => a.c - b.c);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].c === all[i].c) j++;
    const mid = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (all[k].r) rankSum += mid;
    i = j + 1;
  }
  return (rankSum - (right.length * (right.length + 1)) / 2) / (right.length * wrong.length);
}
