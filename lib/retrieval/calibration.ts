import fitted from './calibration.json' with { type: 'json' };

/**
 * The calibrated confidence shown with an answer: the share of dev questions whose named paper was right among
 * those with the same coverage confidence, as a monotone step map fitted by `npm run calibrate` (isotonic
 * regression, lib/evaluation/calibration.ts) and checked in as calibration.json.
 */
export interface CalibrationMap {
  x: number[];
  y: number[];
  /** What it was fitted on (question sets, pipeline, counts), for the record. */
  fittedOn?: string;
}

/** `map.y[i]` for the last `map.x[i] ≤ confidence` (`map.y[0]` below the first); the identity for an empty map. */
export function applyCalibration(map: CalibrationMap, confidence: number): number {
  if (map.x.length === 0) return confidence;
  let i = 0;
  while (i + 1 < map.x.length && map.x[i + 1] <= confidence) i++;
  return map.y[i];
}

export const CALIBRATION: CalibrationMap = fitted;

export const calibratedConfidence = (confidence: number): number => applyCalibration(CALIBRATION, confidence);
