import {
  classifyParagraphRole,
  classifySynthesisMethod,
  PARAGRAPH_ROLES,
  SYNTHESIS_METHODS,
  type ParagraphRole,
  type SynthesisMethod,
} from '../../structure/classify.ts';
import { ENTITY_ROLES } from '../../structure/entities.ts';

/**
 * A trained structuring head: softmax regression over the local encoder's paragraph vector (bge-small, the [CLS]
 * vector the dense index stores) and, for the "both" kind, the offline rules' class scores. Prediction is a few
 * hundred multiply-adds in plain TypeScript; only training loads the learner (train.ts).
 */
export type HeadTask = 'paragraph-role' | 'synthesis-method' | 'material-role';
/** The heads that read a whole paragraph (the material tagger reads mentions: material-tagger.ts). */
export type ParagraphHeadTask = Exclude<HeadTask, 'material-role'>;
/** What a head reads: the encoder alone, or the encoder and the rules' scores. */
export type HeadInputs = 'encoder' | 'encoder+rules' | 'mention-features';

export const HEAD_LABELS: {
  'paragraph-role': readonly ParagraphRole[];
  'synthesis-method': readonly SynthesisMethod[];
  'material-role': readonly string[];
} = {
  'paragraph-role': PARAGRAPH_ROLES,
  'synthesis-method': SYNTHESIS_METHODS,
  'material-role': [...ENTITY_ROLES, 'none'],
};

export interface HeadWeights {
  task: HeadTask;
  inputs: HeadInputs;
  labels: string[];
  /** Row-major [features × labels]. */
  kernel: number[];
  bias: number[];
  features: number;
}

// The encoder's unit vectors have components of about ±0.05 and the rules' log-scores run to about 3: scaled so the
// learner's one regularisation weight treats both alike (chosen on the KIST dev folds: 5 and 2 of 1–10 tried).
const ENCODER_SCALE = 5;
const RULES_SCALE = 2;

/** The rules' score per class, log-scaled: the "both" heads' second input. */
export function ruleScores(task: ParagraphHeadTask, text: string): number[] {
  const scores: Record<string, number> = task === 'paragraph-role' ? classifyParagraphRole(text).scores : classifySynthesisMethod(text).scores;
  return HEAD_LABELS[task].map((l) => Math.log1p(scores[l] ?? 0));
}

/** The head's input for one paragraph. */
export function headFeatures(task: ParagraphHeadTask, inputs: HeadInputs, text: string, vector: ArrayLike<number>): number[] {
  const out = Array.from(vector, (v) => v * ENCODER_SCALE);
  if (inputs === 'encoder+rules') for (const s of ruleScores(task, text)) out.push(s * RULES_SCALE);
  return out;
}

/** Class probabilities, in `weights.labels` order. */
export function predictProbabilities(weights: HeadWeights, features: number[]): number[] {
  if (features.length !== weights.features) throw new Error(`the ${weights.task} head reads ${weights.features} features, got ${features.length}`);
  const k = weights.labels.length;
  const logits = weights.bias.slice();
  for (let f = 0; f < features.length; f++) {
    const x = features[f];
    if (x === 0) continue;
    const row = f * k;
    for (let c = 0; c < k; c++) logits[c] += x * weights.kernel[row + c];
  }
  const max = Math.max(...logits);
  const exp = logits.map((z) => Math.exp(z - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / sum);
}

export interface HeadPrediction {
  label: string;
  probability: number;
}

export function predictLabel(weights: HeadWeights, features: number[]): HeadPrediction {
  const p = predictProbabilities(weights, features);
  let best = 0;
  for (let i = 1; i < p.length; i++) if (p[i] > p[best]) best = i;
  return { label: weights.labels[best], probability: p[best] };
}
