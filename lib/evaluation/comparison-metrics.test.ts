import { describe, expect, it } from 'vitest';
import { scoreComparison, summarizeComparisons } from './comparison-metrics.ts';

const sides = [
  { name: 'MgB2', value: '39 K', canonical: 39 },
  { name: 'Nb3Sn', value: '18 K', canonical: 18 },
];

describe('comparison scores', () => {
  it('count the sides named, each side’s gold value in a sentence naming it, and the verdict against the gold order', () => {
    const right = scoreComparison(sides, {
      sentences: ['MgB2 has the higher Tc: 39 K, against 18 K for Nb3Sn.', 'MgB2: 39 K (“A”).', 'Nb3Sn: 18 K (“B”).'],
      abstained: false,
      confidence: 0.9,
    });
    expect(right).toEqual({ abstained: false, sidesNamed: 2, valuesStated: 2, verdict: 'right', confidence: 0.9 });
    // "No: …" before the verdict of a yes/no question; the lower side named lower is right too.
    expect(scoreComparison(sides, { sentences: ['No: Nb3Sn has the lower Tc: 18 K, against 39 K for MgB2.'], abstained: false, confidence: 0.5 }).verdict).toBe(
      'right',
    );
    const wrong = scoreComparison(sides, { sentences: ['Nb3Sn has the higher Tc: 20 K, against 9 K for MgB2.'], abstained: false, confidence: 0.8 });
    expect(wrong.verdict).toBe('wrong');
    // 39 K stated only in a sentence about the other side is not MgB2's.
    expect(wrong.valuesStated).toBe(0);
    const none = scoreComparison(sides, {
      sentences: ['The evidence does not let MgB2 and Nb3Sn be compared.', 'Nb3Sn: 18 K.'],
      abstained: false,
      confidence: 0.4,
    });
    expect(none).toMatchObject({ sidesNamed: 2, valuesStated: 1, verdict: 'none' });
    const refused = scoreComparison(sides, { sentences: ['The corpus does not support an answer to this question.'], abstained: true, confidence: 0 });
    expect(refused).toMatchObject({ abstained: true, sidesNamed: 0, verdict: 'none' });

    const summary = summarizeComparisons([right, wrong, none, refused]);
    expect(summary).toMatchObject({
      n: 4,
      abstained: 0.25,
      both_sides_named: 0.75,
      side_value_recall: 0.375,
      verdict_rate: 0.5,
      verdict_accuracy: 0.5,
      wrong_verdict_rate: 0.25,
      confidence_right: 0.9,
      confidence_wrong: 0.8,
    });
    expect(summarizeComparisons([])).toMatchObject({ n: 0, verdict_accuracy: null });
  });
});
