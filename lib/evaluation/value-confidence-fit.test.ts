import { describe, expect, it } from 'vitest';
import { bestValueConfidence, fitValueConfidence, leaveOneFormOutValues, type ValueConfidenceRow } from './value-confidence-fit.ts';
import { valueConfidence } from '../retrieval/gate/abstention-model.ts';
import type { AbstentionModel } from '../retrieval/gate/abstention-model.ts';

/**
 * Invented value answers: every one shows 0.97, and the gold value is in the evidence of 97 in 100; of those, nearly
 * every value that leads the others by a wide margin is right, and a close call (a sentence stating two
 * temperatures) is right less than half the time.
 */
function rows(): ValueConfidenceRow[] {
  const out: ValueConfidenceRow[] = [];
  let seed = 7;
  const random = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  for (const form of ['plain', 'typo', 'word-order', 'student'])
    for (let i = 0; i < 100; i++) {
      // Seven in ten lead clearly; the rest are close calls.
      const clear = random() < 0.7;
      const margin = clear ? 4 + 2 * random() : random();
      const found = random() < 0.97;
      const right = found && random() < (clear ? 0.99 : 0.4);
      out.push({
        form,
        id: `${form}-${i}`,
        shown: 0.97,
        found,
        right,
        signals: { valueScore: 3 + margin / 2, valueMargin: margin, valueAgreement: 0, valueRank: 0, valueDeeper: 0 },
      });
    }
  return out;
}

describe('the value confidence fit', () => {
  it("is measured held out beside the confidence shown without it, and beats it where the value's support tells right from wrong", () => {
    const data = rows();
    const cv = leaveOneFormOutValues(data, { features: ['valueMargin'], l2: 0.01, timesPaper: true });
    expect(cv.forms.map((f) => f.form)).toEqual(['plain', 'typo', 'word-order', 'student']);
    expect(cv.forms.reduce((t, f) => t + f.answered, 0)).toBe(data.length);
    // 0.97 shown for answers right about 80% of the time: miscalibrated, and blind to which are wrong.
    expect(cv.shownEce).toBeGreaterThan(0.1);
    expect(cv.shownAuroc).toBe(0.5);
    expect(cv.ece).toBeLessThan(cv.shownEce / 2);
    expect(cv.auroc!).toBeGreaterThan(0.7);
    expect(cv.logLoss).toBeLessThan(cv.shownLogLoss);
  });

  it('chooses a candidate that reads the margin, and the fit it writes is what the app applies', () => {
    const data = rows();
    const { chosen, all } = bestValueConfidence(data);
    expect(all.length).toBeGreaterThan(1);
    expect(chosen.candidate.features).toContain('valueMargin');
    expect(chosen.logLoss).toBe(Math.min(...all.map((c) => c.logLoss)));
    const fit = fitValueConfidence(data, chosen.candidate, 'test');
    const decision = { valueConfidence: fit } as AbstentionModel;
    const sure = valueConfidence(decision, 0.97, { score: 6, margin: 6, agreeing: 0, rank: 0, deeper: false })!;
    const close = valueConfidence(decision, 0.97, { score: 3.2, margin: 0.3, agreeing: 0, rank: 0, deeper: false })!;
    expect(sure).toBeGreaterThan(0.9);
    expect(close).toBeLessThan(0.65);
  });

  it('refuses to fit when every answer whose evidence holds the gold value is right', () => {
    const data = rows().map((r) => ({ ...r, right: r.found }));
    expect(() => fitValueConfidence(data, { features: ['valueMargin'], l2: 1, timesPaper: true }, 'test')).toThrow(/all alike/);
  });
});
