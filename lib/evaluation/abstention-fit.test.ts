import { describe, expect, it } from 'vitest';
import { seededRandom } from '../common/random.ts';
import { ABSTENTION_FEATURES, type AbstentionSignals, answerableProbability } from '../retrieval/gate/abstention-model.ts';
import { type AbstentionRow, candidates, chooseThreshold, fitAbstentionModel, leaveOneFormOut } from './abstention-fit.ts';

const signals = (over: Partial<AbstentionSignals>): AbstentionSignals => ({
  ...(Object.fromEntries(ABSTENTION_FEATURES.map((f) => [f, 0])) as AbstentionSignals),
  ...over,
});

/**
 * Forms where answerable questions have high facet coverage and unanswerable ones low, with noise; in form "odd" the
 * hand rules got everything wrong, so the comparison with them is visible.
 */
function rows(seed: number): AbstentionRow[] {
  const rand = seededRandom(seed);
  const out: AbstentionRow[] = [];
  for (const form of ['plain', 'natural', 'near-miss', 'odd']) {
    for (let i = 0; i < 60; i++) {
      const answerable = form === 'near-miss' ? i < 10 : i % 4 !== 0;
      const coverage = Math.min(1, Math.max(0, (answerable ? 0.8 : 0.3) + (rand() - 0.5) * 0.5));
      out.push({
        form,
        id: `${form}-${i}`,
        answerable,
        signals: signals({ facetCoverage: coverage, denseBestPaper: rand() }),
        rulesAbstain: form === 'odd' ? answerable : coverage < 0.5,
      });
    }
  }
  return out;
}

describe('chooseThreshold', () => {
  it('puts the line where the groups are separated, each group counting once', () => {
    const rs: AbstentionRow[] = [
      ...Array.from({ length: 100 }, (_, i) => ({ form: 'big', id: `a${i}`, answerable: true, signals: signals({ facetCoverage: 0.9 }), rulesAbstain: false })),
      ...Array.from({ length: 3 }, (_, i) => ({ form: 'small', id: `u${i}`, answerable: false, signals: signals({ facetCoverage: 0.2 }), rulesAbstain: true })),
    ];
    const t = chooseThreshold(rs, (r) => r.signals.facetCoverage);
    expect(t).toBeGreaterThan(0.2);
    expect(t).toBeLessThanOrEqual(0.9);
  });
});

describe('fitAbstentionModel', () => {
  it('learns that coverage makes a question answerable and ignores a signal that says nothing', () => {
    const model = fitAbstentionModel(rows(1), { features: ['facetCoverage', 'denseBestPaper'], l2: 0.01 }, 'test');
    expect(model.weights[0]).toBeGreaterThan(1);
    expect(Math.abs(model.weights[1])).toBeLessThan(0.5);
    expect(answerableProbability(model, signals({ facetCoverage: 1, denseBestPaper: 0.5 }))).toBeGreaterThan(model.threshold);
    expect(answerableProbability(model, signals({ facetCoverage: 0.1, denseBestPaper: 0.5 }))).toBeLessThan(model.threshold);
  });
});

describe('leaveOneFormOut', () => {
  it('measures every form with a model that never saw it, beside the hand rules', () => {
    const cv = leaveOneFormOut(rows(2), { features: ['facetCoverage'], l2: 0.01 });
    expect(cv.forms.map((f) => f.model.form)).toEqual(['plain', 'natural', 'near-miss', 'odd']);
    const odd = cv.forms.find((f) => f.model.form === 'odd')!;
    // The rules refused every answerable "odd" question; a model fitted on the other forms does not.
    expect(odd.rules.falseAbstention).toBe(1);
    expect(odd.model.falseAbstention!).toBeLessThan(0.2);
    expect(cv.worstAbstention.value).toBeGreaterThan(0.5);
    expect(cv.logLoss).toBeLessThan(Math.log(2));
  });

  it('offers fits with and without the embedder signals', () => {
    expect(candidates(false).every((c) => c.features.every((f) => !f.startsWith('dense')))).toBe(true);
    expect(candidates(true).some((c) => c.features.includes('denseBestPaper'))).toBe(true);
  });
});
