import { describe, expect, it } from 'vitest';
import {
  ABSTENTION_FEATURES,
  type AbstentionModel,
  type AbstentionModelFile,
  type AbstentionSignals,
  answerableProbability,
  contributions,
  embedderFamily,
  FITTED_MODELS,
  modelFor,
  valueConfidence,
  valueConfidenceSignals,
} from './abstention-model.ts';

const model = (over: Partial<AbstentionModel> = {}): AbstentionModel => ({
  features: ['facetCoverage', 'denseBestPaper'],
  mean: [0.5, 0.5],
  scale: [0.25, 0.1],
  weights: [2, 1],
  bias: 0,
  threshold: 0.5,
  l2: 0.01,
  fittedOn: 'test',
  ...over,
});
const signals = (over: Partial<AbstentionSignals>): AbstentionSignals => ({
  ...(Object.fromEntries(ABSTENTION_FEATURES.map((f) => [f, 0])) as AbstentionSignals),
  ...over,
});

describe('the abstention model', () => {
  it('is the logistic function of the standardised signals', () => {
    expect(answerableProbability(model(), signals({ facetCoverage: 0.5, denseBestPaper: 0.5 }))).toBeCloseTo(0.5, 6);
    // z = 2·(1 − 0.5)/0.25 + 1·(0.6 − 0.5)/0.1 = 5
    expect(answerableProbability(model(), signals({ facetCoverage: 1, denseBestPaper: 0.6 }))).toBeCloseTo(1 / (1 + Math.exp(-5)), 6);
    expect(contributions(model(), signals({ facetCoverage: 1, denseBestPaper: 0.6 }))[0]).toEqual({ feature: 'facetCoverage', contribution: 4 });
  });

  it('serves each embedder the fit of its family, and the one without dense signals to the rest', () => {
    expect(embedderFamily('bge-small-en-v1.5-q@onnx:256')).toBe('bge-small-en-v1.5');
    expect(embedderFamily('local-hash-256@ab12cd34ef')).toBe('ngram');
    expect(embedderFamily('openai:text-embedding-3-small')).toBe('lexical');
    const file: AbstentionModelFile = { models: { ngram: model({ fittedOn: 'ngram' }), lexical: model({ fittedOn: 'lexical', features: ['facetCoverage'] }) } };
    expect(modelFor('local-hash-256@x', file)?.fittedOn).toBe('ngram');
    expect(modelFor('bge-small-en-v1.5-q@onnx:256', file)?.fittedOn).toBe('lexical');
    expect(modelFor('anything', { models: {} })).toBeNull();
  });

  it('is checked in for the model, the n-gram stand-in and other embedders, with its cross-validated figures', () => {
    for (const family of ['bge-small-en-v1.5', 'ngram', 'lexical']) {
      const m = FITTED_MODELS.models[family];
      expect(m, family).toBeDefined();
      expect(m.weights).toHaveLength(m.features.length);
      expect(m.features.every((f) => (ABSTENTION_FEATURES as readonly string[]).includes(f))).toBe(true);
      expect(m.threshold).toBeGreaterThan(0);
      expect(m.threshold).toBeLessThan(1);
      expect(m.crossValidated).toMatchObject({ worstFalseAbstention: { form: expect.any(String) } });
    }
    expect(FITTED_MODELS.models.lexical.features.some((f) => f.startsWith('dense'))).toBe(false);
  });
});

describe("a value answer's confidence", () => {
  const support = { score: 4, margin: 2, agreeing: 5, rank: 12, deeper: true };
  it('reads the support and caps its counts', () => {
    expect(valueConfidenceSignals(support)).toEqual({ valueScore: 4, valueMargin: 2, valueAgreement: 3, valueRank: 10, valueDeeper: 1 });
  });
  it("is the paper's confidence times the value fit's logistic function, and none without a fit or a support to read", () => {
    const fit = model({
      valueConfidence: { features: ['valueMargin'], mean: [1], scale: [1], weights: [0.5], bias: 0, l2: 1, timesPaper: true, fittedOn: 'test' },
    });
    // 0.9 · sigmoid(0.5 · (2 − 1))
    expect(valueConfidence(fit, 0.9, support)).toBeCloseTo(0.9 / (1 + Math.exp(-0.5)), 9);
    // Fitted on its own, the paper's confidence is not read.
    const alone = model({ valueConfidence: { ...fit.valueConfidence!, timesPaper: false } });
    expect(valueConfidence(alone, 0.9, support)).toBeCloseTo(1 / (1 + Math.exp(-0.5)), 9);
    expect(valueConfidence(model(), 0.5, support)).toBeNull();
    expect(valueConfidence(fit, 0.5, undefined)).toBeNull();
    expect(valueConfidence(null, 0.5, support)).toBeNull();
  });
});
