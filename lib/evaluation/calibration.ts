/**
 * Calibration of the confidence shown with an answer: an isotonic (monotone, pool-adjacent-violators) map from
 * the abstention's coverage confidence to the observed share of questions whose named paper was right, fitted on
 * dev sets; and the reliability table and expected calibration error (ECE) that say how well a confidence means
 * what it says.
 */
import type { CalibrationMap } from '../retrieval/calibration.ts';

export interface CalibrationPoint {
  /** Confidence before calibration. */
  confidence: number;
  /** Whether the answer was right (the right paper named, or an abstention on an unanswerable question). */
  correct: boolean;
}

/** Isotonic regression of correctness on confidence (pool adjacent violators), as a step map. */
export function fitIsotonic(points: CalibrationPoint[]): CalibrationMap {
  const sorted = [...points].sort((a, b) => a.confidence - b.confidence);
  // Ties in confidence form one block: the map is a function of the confidence.
  const blocks: { x: number; sum: number; n: number }[] = [];
  for (const p of sorted) {
    const last = blocks.at(-1);
    if (last && last.x === p.confidence) {
      last.sum += p.correct ? 1 : 0;
      last.n += 1;
    } else blocks.push({ x: p.confidence, sum: p.correct ? 1 : 0, n: 1 });
  }
  const pooled: { x: number; sum: number; n: number }[] = [];
  for (const b of blocks) {
    pooled.push({ ...b });
    while (pooled.length > 1 && pooled.at(-2)!.sum / pooled.at(-2)!.n >= pooled.at(-1)!.sum / pooled.at(-1)!.n) {
      const top = pooled.pop()!;
      const prev = pooled.at(-1)!;
      prev.sum += top.sum;
      prev.n += top.n;
    }
  }
  return { x: pooled.map((b) => b.x), y: pooled.map((b) => Math.round((b.sum / b.n) * 1000) / 1000) };
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
