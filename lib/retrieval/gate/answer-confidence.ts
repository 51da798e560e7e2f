import { type LogisticFitOf, logistic } from './abstention-model.ts';
import type { Abstention } from './abstention.ts';
import type { QuestionAnalysis } from '../question.ts';
import fitted from './answer-confidence-model.json' with { type: 'json' };
import type { Grounding } from './grounding.ts';

/** What the confidence reads of the retrieval: the decision's confidence, its reading of the best paper, and the question reader's. */
export interface GatedRetrieval {
  abstention: Pick<Abstention, 'calibrated' | 'unverified' | 'model'>;
  analysis: Pick<QuestionAnalysis, 'reading'>;
}

/** What it reads of the answer: the shape that answered, what the shape knows of itself, and the verified sentences. */
export interface GatedDraft {
  shape: string;
  /** The shape's own confidence in what it states (a value's), if it has one. */
  confidence?: number;
  /** The share of the question the answer states. */
  answered?: number;
  /** A fact the question states that the answer says its evidence does not meet (AnswerDraft.unmet). */
  unmet?: string;
}
export interface GatedSentence {
  citations: readonly string[];
  verdict?: string | null;
  flags: readonly string[];
}

/**
 * The confidence every answer shows: P(this answer is right), one fit for every shape. It reads what the decision
 * read (the retrieval's calibrated confidence), what the shape knows of itself (a value's own confidence, the share
 * of a comparison it answers), which shape answered, and whether the cited evidence states the asked material,
 * property and values (grounding.ts). Fitted leave-one-form-out on the development forms and the question bank's
 * wording families (`npm run calibrate -- --answers`, lib/evaluation/answer-confidence-fit.ts); right is what each
 * set knows of right (the gold paper cited first, the gold value stated, a recipe answer to a recipe question, any
 * answer to a question the corpus does not answer is wrong).
 */
export const ANSWER_CONFIDENCE_FEATURES = [
  'retrieval',
  'own',
  'hasOwn',
  'answered',
  'shapeValue',
  'shapeList',
  'shapePaper',
  'shapeComparison',
  'shapeSynthesis',
  'groundMaterial',
  'asksMaterial',
  'groundProperty',
  'asksProperty',
  'groundValue',
  'asksValue',
  'groundTechnique',
  'asksTechnique',
  'groundStep',
  'asksStep',
  'paperLead',
  'facetCoverage',
  'termCoverage',
  'supported',
  'unverified',
  'unchecked',
  'outOfScope',
] as const;
export type AnswerConfidenceFeature = (typeof ANSWER_CONFIDENCE_FEATURES)[number];
export type AnswerConfidenceSignals = Record<AnswerConfidenceFeature, number>;

export interface AnswerConfidenceModel extends LogisticFitOf<AnswerConfidenceFeature> {
  /**
   * How often an answer was right where it was fitted when its paper neither states nor contradicts a fact the
   * question states (the `unverified` signal): such an answer is shown at no more than that, nor than
   * UNVERIFIED_AT_MOST, and names the fact, since the linear fit, pulled by the many answers without one, would show
   * it higher.
   */
  unverifiedRight: number | null;
}

const logit = (p: number) => {
  const q = Math.min(0.995, Math.max(0.005, p));
  return Math.log(q / (1 - q));
};

/** The signals of one answer (its draft, verified sentences and the grounding of what they cite). */
export function answerConfidenceSignals(
  result: GatedRetrieval,
  draft: GatedDraft,
  sentences: readonly GatedSentence[],
  grounding: Grounding,
): AnswerConfidenceSignals {
  const citing = sentences.filter((s) => s.citations.length > 0 && !s.flags.includes('frame'));
  const shape = draft.shape;
  return {
    retrieval: logit(result.abstention.calibrated),
    own: draft.confidence === undefined ? 0 : logit(draft.confidence),
    hasOwn: draft.confidence === undefined ? 0 : 1,
    answered: Math.min(1, Math.max(0, draft.answered ?? 1)),
    shapeValue: shape === 'value' ? 1 : 0,
    shapeList: shape === 'ranking' || shape === 'table' ? 1 : 0,
    shapePaper: shape === 'which-paper' || shape === 'bibliography' ? 1 : 0,
    shapeComparison: shape === 'comparison' ? 1 : 0,
    shapeSynthesis: shape === 'synthesis' ? 1 : 0,
    groundMaterial: grounding.material ?? 1,
    asksMaterial: grounding.material === null ? 0 : 1,
    groundProperty: grounding.property ?? 1,
    asksProperty: grounding.property === null ? 0 : 1,
    groundValue: grounding.value ?? 1,
    asksValue: grounding.value === null ? 0 : 1,
    groundTechnique: grounding.technique ?? 1,
    asksTechnique: grounding.technique === null ? 0 : 1,
    groundStep: grounding.step ?? 1,
    asksStep: grounding.step === null ? 0 : 1,
    // The decision's own reading of the best paper (1 where a pipeline's tiers decided without the model).
    paperLead: result.abstention.model?.signals.paperLead ?? 1,
    facetCoverage: result.abstention.model?.signals.facetCoverage ?? 1,
    termCoverage: result.abstention.model?.signals.termCoverage ?? 1,
    supported: citing.length ? citing.filter((s) => s.verdict === 'supported').length / citing.length : 0,
    // A fact the question states that neither the paper states nor contradicts, or that the answer says its evidence
    // does not meet (a value at another temperature than the one asked): shown below one half (answerConfidence).
    unverified: (result.abstention.unverified?.length ?? 0) > 0 || draft.unmet ? 1 : 0,
    // A fact the question states that the answer could not check: a value its cited evidence does not state, or one
    // the paper neither states nor contradicts.
    unchecked: (grounding.value ?? 1) < 1 || (result.abstention.unverified?.length ?? 0) > 0 || draft.unmet ? 1 : 0,
    outOfScope: result.analysis.reading?.probabilities['out-of-scope'] ?? 0,
  };
}

/**
 * An answer whose paper neither states nor contradicts a fact the question states is shown as no more likely right
 * than not, whatever was measured: it could not check what was asked, and says which fact. (Measured, such answers
 * were right 16 of 29 times on the development answers under both embedders: the rule costs those few answers about
 * 0.05 of calibration.)
 */
export const UNVERIFIED_AT_MOST = 0.49;

export const FITTED_ANSWER_CONFIDENCE: AnswerConfidenceModel | null = (fitted as { model: AnswerConfidenceModel | null }).model;

/** P(the answer is right) under the fit; null without one (the caller then shows the draft's confidence). */
export function answerConfidence(signals: AnswerConfidenceSignals, model: AnswerConfidenceModel | null = FITTED_ANSWER_CONFIDENCE): number | null {
  if (!model) return null;
  const p = logistic(model, signals);
  // An answer that states none of what was asked (a value question whose passages state no value of the kind asked,
  // a paper's authors the library does not hold) is not right, whatever else it says. What share a shape answers
  // otherwise (a comparison with a value for one side of two) is the fit's signal `answered`.
  if (signals.answered <= 0) return 0;
  return signals.unverified ? Math.min(p, model.unverifiedRight ?? 1, UNVERIFIED_AT_MOST) : p;
}
