/**
 * Fitting a value answer's confidence (lib/retrieval/gate/abstention-model.ts, ValueConfidenceModel) and measuring it the
 * way a new wording meets it: leave-one-form-out over the value answers the app gives (each dev form, each
 * meaning-keeping rewrite of them a form of its own). Right: the answer's lead sentence states the gold value
 * (`scoreAnswer`'s valueCorrect). Two forms of fit compete: the paper's confidence (fitted on "the gold value is in
 * the top evidence") times P(the value chosen is the gold one | it is there, the value's support), fitted on the
 * answers whose evidence holds it; and P(right | the value's support) fitted on every value answer. Beside each candidate, the confidence those
 * answers show today (the paper's) is scored on the same answers, so the fit is judged against what it replaces.
 */
import { VALUE_CONFIDENCE_FEATURES, type ValueConfidenceFeature, type ValueConfidenceModel } from '../retrieval/gate/abstention-model.ts';
import { auroc, type CalibrationPoint, expectedCalibrationError, type ReliabilityBin, reliabilityTable } from './calibration.ts';
import { fitLogistic, logLoss, predictLogistic, savedFit } from './logistic.ts';

/** One value answer as the fit reads it. */
export interface ValueConfidenceRow {
  form: string;
  id: string;
  /** The value confidence's signals (abstention-model.ts, valueConfidenceSignals). */
  signals: Record<ValueConfidenceFeature, number>;
  /** The confidence the answer showed before this fit (the paper's). */
  shown: number;
  /** The gold value is in the top evidence (what the paper's confidence is fitted to). */
  found: boolean;
  /** The answer states the gold value. */
  right: boolean;
}

export interface ValueConfidenceCandidate {
  features: ValueConfidenceFeature[];
  l2: number;
  /** The paper's confidence times the value's factor (see ValueConfidenceModel.timesPaper). */
  timesPaper: boolean;
}

export interface ValueConfidenceForm {
  form: string;
  answered: number;
  accuracy: number;
  /** Mean and ECE of the held-out fit's confidence, then of the confidence shown before it. */
  meanConfidence: number;
  ece: number;
  meanShown: number;
  shownEce: number;
}

export interface ValueConfidenceCrossValidation {
  candidate: ValueConfidenceCandidate;
  forms: ValueConfidenceForm[];
  /** Over every held-out answer: the fit's figures, then the shown confidence's on the same answers. */
  ece: number;
  auroc: number | null;
  logLoss: number;
  shownEce: number;
  shownAuroc: number | null;
  shownLogLoss: number;
  /** The mean ECE over the forms with at least MIN_FORM answers (each form weighs the same). */
  meanFormEce: number;
  shownMeanFormEce: number;
  reliability: ReliabilityBin[];
  shownReliability: ReliabilityBin[];
}

/** A form's ECE counts in the per-form mean from this many answers: below it, one answer moves it by a tenth. */
export const MIN_FORM = 20;

/**
 * The fit: with `timesPaper`, the value factor, fitted on the answers whose evidence holds the gold value (was the one
 * chosen the gold one); without, P(right) fitted on every value answer.
 */
export function fitValueConfidence(rows: ValueConfidenceRow[], candidate: ValueConfidenceCandidate, fittedOn: string): ValueConfidenceModel {
  const train = candidate.timesPaper ? rows.filter((r) => r.found) : rows;
  if (train.length < 10 || train.every((r) => r.right) || train.every((r) => !r.right))
    throw new Error('too few value answers, or all alike, to fit a confidence');
  const fit = fitLogistic(
    train.map((r) => candidate.features.map((f) => r.signals[f])),
    train.map((r) => r.right),
    { l2: candidate.l2 },
  );
  return {
    features: [...candidate.features],
    ...savedFit(fit),
    l2: candidate.l2,
    timesPaper: candidate.timesPaper,
    fittedOn,
  };
}

/** As the app shows it (abstention-model.ts, valueConfidence). */
const predict = (model: ValueConfidenceModel, r: ValueConfidenceRow) =>
  (model.timesPaper ? r.shown : 1) *
  predictLogistic(
    model,
    model.features.map((f) => r.signals[f]),
  );

/** Each form held out in turn: fitted on the others, scored on it. */
export function leaveOneFormOutValues(rows: ValueConfidenceRow[], candidate: ValueConfidenceCandidate): ValueConfidenceCrossValidation {
  const forms = [...new Set(rows.map((r) => r.form))];
  const fitted: CalibrationPoint[] = [];
  const before: CalibrationPoint[] = [];
  const out: ValueConfidenceForm[] = [];
  for (const form of forms) {
    const test = rows.filter((r) => r.form === form);
    const model = fitValueConfidence(
      rows.filter((r) => r.form !== form),
      candidate,
      `all forms but ${form}`,
    );
    const mine = test.map((r) => ({ confidence: predict(model, r), correct: r.right }));
    const shown = test.map((r) => ({ confidence: r.shown, correct: r.right }));
    fitted.push(...mine);
    before.push(...shown);
    const mean = (ps: CalibrationPoint[]) => ps.reduce((s, p) => s + p.confidence, 0) / ps.length;
    out.push({
      form,
      answered: test.length,
      accuracy: test.filter((r) => r.right).length / test.length,
      meanConfidence: mean(mine),
      ece: expectedCalibrationError(mine),
      meanShown: mean(shown),
      shownEce: expectedCalibrationError(shown),
    });
  }
  const counted = out.filter((f) => f.answered >= MIN_FORM);
  const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const loss = (ps: CalibrationPoint[]) =>
    logLoss(
      ps.map((p) => p.confidence),
      ps.map((p) => p.correct),
    );
  return {
    candidate,
    forms: out,
    ece: expectedCalibrationError(fitted),
    auroc: auroc(fitted),
    logLoss: loss(fitted),
    shownEce: expectedCalibrationError(before),
    shownAuroc: auroc(before),
    shownLogLoss: loss(before),
    meanFormEce: meanOf(counted.map((f) => f.ece)),
    shownMeanFormEce: meanOf(counted.map((f) => f.shownEce)),
    reliability: reliabilityTable(fitted),
    shownReliability: reliabilityTable(before),
  };
}

/** The candidates: how far the value leads alone, with its score and rank, and with every support signal; each in both forms. */
export function valueConfidenceCandidates(): ValueConfidenceCandidate[] {
  const sets: ValueConfidenceFeature[][] = [['valueMargin'], ['valueMargin', 'valueScore', 'valueRank'], [...VALUE_CONFIDENCE_FEATURES]];
  return [true, false].flatMap((timesPaper) => sets.flatMap((features) => [0.001, 0.01, 0.1].map((l2) => ({ features, l2, timesPaper }))));
}

/**
 * The candidate to keep: the lowest held-out log-loss (the confidence is read as a probability, so it must be one),
 * which rewards both calibration and separating right values from wrong ones.
 */
export function bestValueConfidence(rows: ValueConfidenceRow[]): { chosen: ValueConfidenceCrossValidation; all: ValueConfidenceCrossValidation[] } {
  const all = valueConfidenceCandidates().map((c) => leaveOneFormOutValues(rows, c));
  return { chosen: [...all].sort((a, b) => a.logLoss - b.logLoss)[0], all };
}
