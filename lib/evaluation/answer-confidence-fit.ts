/**
 * Fitting the confidence every answer shows (lib/retrieval/gate/answer-confidence.ts) and measuring it as a new wording
 * meets it: leave-one-form-out, where a form is a development question file, a wording family of the question bank
 * or a rewrite transform of the robustness suite. For each form held out the fit is made on the others and the
 * held-out answers are scored: ECE, AUROC of right against wrong, the share of wrong answers shown below one half.
 */
import {
  ANSWER_CONFIDENCE_FEATURES,
  answerConfidence,
  type AnswerConfidenceFeature,
  type AnswerConfidenceModel,
  type AnswerConfidenceSignals,
} from '../retrieval/gate/answer-confidence.ts';
import { auroc, type CalibrationPoint, expectedCalibrationError, type ReliabilityBin, reliabilityTable } from './calibration.ts';
import { fitLogistic, logLoss, savedFit } from './logistic.ts';

/** One answer given: its signals, whether it was right, and the confidence it showed before this fit. */
export interface AnswerConfidenceRow {
  form: string;
  id: string;
  shape: string;
  signals: AnswerConfidenceSignals;
  right: boolean;
  shownBefore: number;
}

export interface AnswerConfidenceCandidate {
  features: AnswerConfidenceFeature[];
  l2: number;
}

export interface AnswerConfidenceForm {
  form: string;
  answered: number;
  accuracy: number;
  meanConfidence: number;
  ece: number;
  /** Over the held-out answers of this form, when it has both right and wrong ones. */
  auroc: number | null;
  /** The same answers with the confidence shown before this fit. */
  eceBefore: number;
}

export interface AnswerConfidenceCrossValidation {
  candidate: AnswerConfidenceCandidate;
  forms: AnswerConfidenceForm[];
  ece: number;
  eceBefore: number;
  auroc: number | null;
  aurocBefore: number | null;
  logLoss: number;
  worstEce: { form: string; value: number };
  /** Wrong answers shown below 0.5, and right ones shown at 0.5 or more. */
  wrongBelowHalf: number;
  rightAboveHalf: number;
  reliability: ReliabilityBin[];
  byShape: { shape: string; answered: number; accuracy: number; meanConfidence: number; ece: number; auroc: number | null }[];
}

const vector = (r: AnswerConfidenceRow, features: readonly AnswerConfidenceFeature[]) => features.map((f) => r.signals[f] ?? 0);

export function fitAnswerConfidence(rows: AnswerConfidenceRow[], candidate: AnswerConfidenceCandidate, fittedOn: string): AnswerConfidenceModel {
  if (rows.length < 20 || rows.every((r) => r.right) || rows.every((r) => !r.right)) throw new Error('too few answers, or all alike, to fit a confidence');
  const fit = fitLogistic(
    rows.map((r) => vector(r, candidate.features)),
    rows.map((r) => r.right),
    { l2: candidate.l2 },
  );
  const unverified = rows.filter((r) => r.signals.unverified);
  // Measured where there are enough of them to measure, and smoothed toward one half by its count.
  const unverifiedRight = unverified.length >= MIN_UNVERIFIED ? (unverified.filter((r) => r.right).length + 1) / (unverified.length + 2) : null;
  return { features: [...candidate.features], ...savedFit(fit), l2: candidate.l2, unverifiedRight, fittedOn };
}

/** Answers with an unverified fact needed to measure how often such an answer is right. */
const MIN_UNVERIFIED = 10;

const summarise = (points: CalibrationPoint[]) => ({
  answered: points.length,
  accuracy: points.filter((p) => p.correct).length / Math.max(1, points.length),
  meanConfidence: points.reduce((s, p) => s + p.confidence, 0) / Math.max(1, points.length),
  ece: expectedCalibrationError(points),
  auroc: auroc(points),
});

export function leaveOneFormOutAnswers(rows: AnswerConfidenceRow[], candidate: AnswerConfidenceCandidate): AnswerConfidenceCrossValidation {
  const forms = [...new Set(rows.map((r) => r.form))];
  const held: (CalibrationPoint & { form: string; shape: string; before: number })[] = [];
  const out: AnswerConfidenceForm[] = [];
  for (const form of forms) {
    const model = fitAnswerConfidence(
      rows.filter((r) => r.form !== form),
      candidate,
      `all forms but ${form}`,
    );
    const mine = rows
      .filter((r) => r.form === form)
      .map((r) => ({ confidence: answerConfidence(r.signals, model)!, correct: r.right, form, shape: r.shape, before: r.shownBefore }));
    held.push(...mine);
    const s = summarise(mine);
    out.push({ form, ...s, eceBefore: expectedCalibrationError(mine.map((m) => ({ confidence: m.before, correct: m.correct }))) });
  }
  const worst = [...out].sort((a, b) => b.ece - a.ece)[0];
  const before = held.map((h) => ({ confidence: h.before, correct: h.correct }));
  const shapes = [...new Set(held.map((h) => h.shape))].sort();
  return {
    candidate,
    forms: out,
    ece: expectedCalibrationError(held),
    eceBefore: expectedCalibrationError(before),
    auroc: auroc(held),
    aurocBefore: auroc(before),
    logLoss: logLoss(
      held.map((h) => h.confidence),
      held.map((h) => h.correct),
    ),
    worstEce: worst ? { form: worst.form, value: worst.ece } : { form: '–', value: 0 },
    wrongBelowHalf: held.filter((h) => !h.correct && h.confidence < 0.5).length / Math.max(1, held.filter((h) => !h.correct).length),
    rightAboveHalf: held.filter((h) => h.correct && h.confidence >= 0.5).length / Math.max(1, held.filter((h) => h.correct).length),
    reliability: reliabilityTable(held),
    byShape: shapes.map((shape) => ({ shape, ...summarise(held.filter((h) => h.shape === shape)) })),
  };
}

/**
 * Candidates: every signal; every signal but the shape's; and the decision's and the value's confidences with the
 * grounding alone (fewest weights, for forms unlike the rest) — each at six penalties.
 */
export function answerConfidenceCandidates(): AnswerConfidenceCandidate[] {
  const all = [...ANSWER_CONFIDENCE_FEATURES];
  const noShape = all.filter((f) => !f.startsWith('shape'));
  const core: AnswerConfidenceFeature[] = [
    'retrieval',
    'own',
    'hasOwn',
    'answered',
    'groundMaterial',
    'groundProperty',
    'groundValue',
    'unverified',
    'outOfScope',
  ];
  return [all, noShape, core].flatMap((features) => [0.001, 0.003, 0.01, 0.03, 0.1, 0.3].map((l2) => ({ features, l2 })));
}
