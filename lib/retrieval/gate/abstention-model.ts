import fitted from './abstention-model.json' with { type: 'json' };
import type { ValueSupport } from '../value.ts';

/**
 * The abstention decision as a fitted model: the probability that the question is answered by the corpus (its
 * best paper states what it asks), from signals the retrieval already computes plus the embedding model's
 * similarity, by L2-regularised logistic regression (lib/evaluation/logistic.ts). It replaces a cascade of hand
 * thresholds that fitted the wordings they were tuned on: `npm run calibrate` fits it on every dev question form,
 * reports it leave-one-form-out, and writes abstention-model.json, which holds one fit per embedder family (the
 * similarity signals mean different things under the model and under the n-gram stand-in). Its probability is the
 * confidence the UI shows; the reason codes still say which checks failed.
 *
 * Leaf of lib/retrieval besides its JSON (and value.ts's ValueSupport, a type): abstention.ts computes the signals and calls it.
 */

/** The signals, in the order of a fitted model's weights. Each is 0–1 unless said otherwise. */
export const ABSTENTION_FEATURES = [
  /** 1 when the hand cascade (coverage confidence ≥ ABSTAIN_BELOW, the former decision) would answer. */
  'rulesAnswer',
  /** The hand cascade's coverage confidence (the former decision's score, kept as one summary signal). */
  'ruleConfidence',
  /** Share of the question's materials, values and properties the best paper states (1 when it names none). */
  'facetCoverage',
  /** 1 when the question names a material, value or property at all. */
  'hasFacets',
  /** Share of the question's materials the best paper does not state. */
  'missingMaterials',
  /** Share of the question's values the best paper does not state with what they are values of. */
  'missingValues',
  /** Share of the question's values the best paper contradicts (states another value of the same thing). */
  'contradictedValues',
  /** Share of the question's values the best paper says nothing of (neither states nor contradicts). */
  'unverifiedValues',
  /** Share of the question's materials the best paper states another in place of (another dopant, host, composition). */
  'contradictedMaterials',
  /** Share of the question's preparation techniques the best paper does not name. */
  'missingTechniques',
  /** Share of the question's formula-like words the corpus does not know at all. */
  'unknownNames',
  /** 1 when the question quotes a title that no paper has. */
  'titleUnmatched',
  /** Share of the question's distinctive words (weighted by rarity) the best paper states anywhere (1 when too few). */
  'termCoverage',
  /** The same for the best paper's best paragraph with its title. */
  'termParagraph',
  /** log(1 + number of distinctive words the corpus knows). */
  'distinctiveWords',
  /** How far the best paper leads the next, as a share of its score. */
  'paperLead',
  /** 1 for a value question (the question quotes the paper's title or describes it, and asks a number). */
  'valueQuestion',
  /** Cosine between the question and the best paper's closest paragraph (the embedder's). */
  'denseBestPaper',
  /** How much closer the corpus's closest paragraph is than the best paper's (0 when it is the best paper's). */
  'denseGap',
  /** 1 / the best paper's rank among the papers of the dense search's top paragraphs (0 when not among them). */
  'denseAgreement',
] as const;
export type AbstentionFeature = (typeof ABSTENTION_FEATURES)[number];
export type AbstentionSignals = Record<AbstentionFeature, number>;

/** The signals that need the embedder; a fit without them serves an embedder no fit was made for. */
export const DENSE_FEATURES: readonly AbstentionFeature[] = ['denseBestPaper', 'denseGap', 'denseAgreement'];

export interface AbstentionModel {
  /** The features it uses, a subset of ABSTENTION_FEATURES, in the order of `weights`. */
  features: AbstentionFeature[];
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /** Abstain below this probability (chosen by cross-validation, see `npm run calibrate`). */
  threshold: number;
  l2: number;
  fittedOn: string;
  /** Leave-one-form-out figures at fitting time, for the record (the README and the closing notes cite them). */
  crossValidated?: Record<string, unknown>;
  /** The shown confidence's own fit; without one, the decision's probability is shown. */
  confidence?: ConfidenceModel;
  /** A value answer's own fit (see ValueConfidenceModel); without one, a value answer shows `confidence`'s. */
  valueConfidence?: ValueConfidenceModel;
}

/**
 * The confidence shown beside an answer: the probability that it is right (the right paper first, the right value
 * found), fitted on the answers the decision gives, from the decision's own probability (`answerable`) and the
 * signals that tell a right answer from a wrong one (how far the best paper leads, how close the embedder finds it).
 * The decision says whether to answer; this says how sure to be of the answer given.
 */
export type ConfidenceModel = LogisticFitOf<ConfidenceFeature>;

/** A saved logistic fit over named features, standardised by its mean and scale (see `logistic`). */
export interface LogisticFitOf<F extends string> {
  features: F[];
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  l2: number;
  fittedOn: string;
  /** Leave-one-form-out figures at fitting time, for the record. */
  crossValidated?: Record<string, unknown>;
}
export type ConfidenceFeature = AbstentionFeature | 'answerable';

/**
 * What a value answer's confidence reads besides its paper's: what the value extractor saw when it chose the value
 * from that paper's evidence (lib/retrieval/value.ts, ValueSupport). The paper's confidence is fitted on "the gold
 * value is in the top evidence", and of the value answers whose evidence holds the gold value about one in fifteen
 * states another (2026-12-02, bge-small): its sentence names two temperatures, or the value is another sample's.
 */
export const VALUE_CONFIDENCE_FEATURES = [
  /** The chosen value's score. */
  'valueScore',
  /** Its lead over the best different value (MARGIN_CAP when none competes). */
  'valueMargin',
  /** Other evidence items stating the same value (at most 3 counted). */
  'valueAgreement',
  /** The rank of the item it was read from (at most 10 counted). */
  'valueRank',
  /** 1 when read from the ranking read deeper. */
  'valueDeeper',
] as const;
export type ValueConfidenceFeature = (typeof VALUE_CONFIDENCE_FEATURES)[number];

/**
 * A value answer's confidence, fitted on the value answers the app gives to every dev form and every meaning-keeping
 * rewrite of them (`npm run calibrate -- --values`, lib/evaluation/value-confidence-fit.ts) and measured
 * leave-one-form-out as it is shown. Either the paper's confidence times P(the value chosen is the gold one | the
 * gold value is in the evidence) (`timesPaper`), or P(the value is right) from its support alone: whichever predicts
 * held-out forms better.
 */
export interface ValueConfidenceModel extends LogisticFitOf<ValueConfidenceFeature> {
  /** Shown as the paper's confidence times this fit's probability; else as the fit's probability alone. */
  timesPaper: boolean;
}

/** The value confidence's signals for a value with this support. */
export function valueConfidenceSignals(support: ValueSupport): Record<ValueConfidenceFeature, number> {
  return {
    valueScore: support.score,
    valueMargin: support.margin,
    valueAgreement: Math.min(3, support.agreeing),
    valueRank: Math.min(10, support.rank),
    valueDeeper: support.deeper ? 1 : 0,
  };
}

/**
 * A value answer's confidence under the model's value fit (see ValueConfidenceModel: times its paper's, `shown`, or
 * alone). Null without a fit or a support to read (the paper's confidence stands).
 */
export function valueConfidence(model: AbstentionModel | null, shown: number, support: ValueSupport | undefined): number | null {
  const fit = model?.valueConfidence;
  if (!fit || !support) return null;
  return (fit.timesPaper ? shown : 1) * logistic(fit, valueConfidenceSignals(support));
}

export interface AbstentionModelFile {
  /** One fit per embedder family: `bge-small-en-v1.5`, `ngram`, and `lexical` (no dense signals) for the rest. */
  models: Record<string, AbstentionModel>;
}

export const FITTED_MODELS: AbstentionModelFile = fitted as AbstentionModelFile;

/** Which fit serves an embedder: its family's, else the one without dense signals; null before any fit. */
export function embedderFamily(embedderId: string): string {
  if (/bge-small-en-v1\.5/.test(embedderId)) return 'bge-small-en-v1.5';
  if (/^local-hash-/.test(embedderId)) return 'ngram';
  return 'lexical';
}

export function modelFor(embedderId: string, file: AbstentionModelFile = FITTED_MODELS): AbstentionModel | null {
  return file.models[embedderFamily(embedderId)] ?? file.models.lexical ?? null;
}

/** P(the corpus answers the question) under a fitted model. */
export function answerableProbability(model: Pick<AbstentionModel, 'features' | 'weights' | 'mean' | 'scale' | 'bias'>, signals: AbstentionSignals): number {
  return logistic(model, signals);
}

/** A fitted logistic model over named signals (standardised by its mean and scale): the probability it gives. */
export function logistic(
  model: { features: readonly string[]; weights: number[]; mean: number[]; scale: number[]; bias: number },
  signals: Record<string, number>,
): number {
  let z = model.bias;
  model.features.forEach((f, j) => {
    z += model.weights[j] * (((signals[f] ?? 0) - model.mean[j]) / model.scale[j]);
  });
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** The confidence shown: P(the answer is right) under the model's confidence fit, else its decision's probability. */
export function shownConfidence(model: AbstentionModel, signals: AbstentionSignals, answerable = answerableProbability(model, signals)): number {
  return model.confidence ? logistic(model.confidence, { ...signals, answerable }) : answerable;
}

/** The features' contributions to the decision (weight × standardised value), largest first, for the trace. */
export function contributions(model: AbstentionModel, signals: AbstentionSignals): { feature: AbstentionFeature; contribution: number }[] {
  return model.features
    .map((f, j) => ({ feature: f, contribution: model.weights[j] * ((signals[f] - model.mean[j]) / model.scale[j]) }))
    .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution));
}
