/**
 * Fitting the shown confidence (lib/retrieval/gate/abstention-model.ts, ConfidenceModel) and measuring it the way a new
 * wording meets it: leave-one-form-out. For each form held out, the decision is fitted on the others; the answers it
 * gives there train the confidence (right: the gold paper first, or the gold value found); the held-out form's
 * answers are scored — expected calibration error per form, the reliability table and how well the confidence
 * separates right from wrong (AUROC), all over the answers given.
 */
import type { AbstentionModel, ConfidenceFeature, ConfidenceModel } from '../retrieval/gate/abstention-model.ts';
import { type AbstentionRow, type Candidate, fitAbstentionModel } from './abstention-fit.ts';
import { auroc, type CalibrationPoint, expectedCalibrationError, type ReliabilityBin, reliabilityTable } from './calibration.ts';
import { fitLogistic, logLoss, predictLogistic, savedFit } from './logistic.ts';

export interface ConfidenceCandidate {
  features: ConfidenceFeature[];
  l2: number;
}

export interface ConfidenceForm {
  form: string;
  /** Answers the held-out decision gave (with a known right or wrong). */
  answered: number;
  accuracy: number | null;
  meanConfidence: number | null;
  ece: number | null;
}

export interface ConfidenceCrossValidation {
  candidate: ConfidenceCandidate;
  forms: ConfidenceForm[];
  /** Over every held-out answer. */
  ece: number;
  worstEce: { form: string; value: number };
  auroc: number | null;
  logLoss: number;
  reliability: ReliabilityBin[];
  /** Held-out points, for the record. */
  points: (CalibrationPoint & { form: string })[];
}

const featureValue = (row: AbstentionRow, answerable: number, f: ConfidenceFeature) => (f === 'answerable' ? answerable : row.signals[f]);

/**
 * The rows the confidence learns from: every dev question and every meaning-keeping rewrite — answers as people's
 * questions meet them. The meaning-changing rewrites train the decision, not the confidence: they are near misses at
 * a rate no stream of real questions has, and would teach it that one answer in ten is wrong.
 */
export const confidenceRow = (r: AbstentionRow): boolean => r.rewrite !== 'change';

export function fitConfidenceModel(rows: AbstentionRow[], decision: AbstentionModel, candidate: ConfidenceCandidate, fittedOn: string): ConfidenceModel {
  const p = (r: AbstentionRow) =>
    predictLogistic(
      decision,
      decision.features.map((f) => r.signals[f]),
    );
  const answered = rows.filter((r) => confidenceRow(r) && r.right !== null && r.right !== undefined && p(r) >= decision.threshold);
  if (answered.length < 10 || answered.every((r) => r.right) || answered.every((r) => !r.right))
    throw new Error('too few answers, or all alike, to fit a confidence');
  const fit = fitLogistic(
    answered.map((r) => candidate.features.map((f) => featureValue(r, p(r), f))),
    answered.map((r) => r.right === true),
    { l2: candidate.l2 },
  );
  return {
    features: [...candidate.features],
    ...savedFit(fit),
    l2: candidate.l2,
    fittedOn,
  };
}

export function confidenceOf(model: ConfidenceModel, row: AbstentionRow, answerable: number): number {
  return predictLogistic(
    model,
    model.features.map((f) => featureValue(row, answerable, f)),
  );
}

/** The decision fitted with `decisionCandidate` and the confidence with `candidate`, each form held out in turn. */
export function leaveOneFormOutConfidence(rows: AbstentionRow[], decisionCandidate: Candidate, candidate: ConfidenceCandidate): ConfidenceCrossValidation {
  const forms = [...new Set(rows.map((r) => r.form))];
  const points: (CalibrationPoint & { form: string })[] = [];
  const out: ConfidenceForm[] = [];
  for (const form of forms) {
    const train = rows.filter((r) => r.form !== form);
    const test = rows.filter((r) => r.form === form && r.right !== null && r.right !== undefined);
    const decision = fitAbstentionModel(train, decisionCandidate, `all forms but ${form}`);
    const model = fitConfidenceModel(train, decision, candidate, `all forms but ${form}`);
    const mine: CalibrationPoint[] = [];
    for (const r of test) {
      const p = predictLogistic(
        decision,
        decision.features.map((f) => r.signals[f]),
      );
      if (p < decision.threshold) continue;
      mine.push({ confidence: confidenceOf(model, r, p), correct: r.right === true });
    }
    points.push(...mine.map((m) => ({ ...m, form })));
    out.push({
      form,
      answered: mine.length,
      accuracy: mine.length ? mine.filter((m) => m.correct).length / mine.length : null,
      meanConfidence: mine.length ? mine.reduce((s, m) => s + m.confidence, 0) / mine.length : null,
      ece: mine.length ? expectedCalibrationError(mine) : null,
    });
  }
  const worst = out.filter((f) => f.ece !== null).sort((a, b) => b.ece! - a.ece!)[0];
  return {
    candidate,
    forms: out,
    ece: expectedCalibrationError(points),
    worstEce: worst ? { form: worst.form, value: worst.ece! } : { form: '–', value: 0 },
    auroc: auroc(points),
    logLoss: logLoss(
      points.map((p) => p.confidence),
      points.map((p) => p.correct),
    ),
    reliability: reliabilityTable(points),
    points,
  };
}

/** The confidence candidates: the decision's probability alone (Platt scaling), with the signals that tell right from wrong, and with every signal. */
export function confidenceCandidates(decisionFeatures: readonly ConfidenceFeature[], withDense: boolean): ConfidenceCandidate[] {
  const separating: ConfidenceFeature[] = ['paperLead', 'termParagraph', 'termCoverage', 'unverifiedValues', 'hasFacets', 'valueQuestion', 'distinctiveWords'];
  const dense: ConfidenceFeature[] = withDense ? ['denseBestPaper', 'denseGap', 'denseAgreement'] : [];
  const sets: ConfidenceFeature[][] = [
    ['answerable'],
    ['answerable', ...separating, ...dense],
    ['answerable', ...new Set([...decisionFeatures, ...separating, ...dense])],
  ];
  return sets.flatMap((features) => [0.03, 0.3, 1, 3, 10].map((l2) => ({ features, l2 })));
}
