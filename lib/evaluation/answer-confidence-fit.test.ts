import { describe, expect, it } from 'vitest';
import { ANSWER_CONFIDENCE_FEATURES, type AnswerConfidenceSignals, answerConfidence } from '../retrieval/gate/answer-confidence.ts';
import { type AnswerConfidenceRow, fitAnswerConfidence, leaveOneFormOutAnswers } from './answer-confidence-fit.ts';

const signals = (over: Partial<AnswerConfidenceSignals>): AnswerConfidenceSignals => ({
  ...(Object.fromEntries(ANSWER_CONFIDENCE_FEATURES.map((f) => [f, 0])) as AnswerConfidenceSignals),
  retrieval: 2,
  answered: 1,
  groundMaterial: 1,
  asksMaterial: 1,
  groundValue: 1,
  asksValue: 1,
  supported: 1,
  ...over,
});

// Three forms; in each, answers whose cited evidence lacks the asked value are mostly wrong, the rest mostly right.
const rows: AnswerConfidenceRow[] = ['a', 'b', 'c'].flatMap((form) =>
  Array.from({ length: 60 }, (_, i) => {
    const grounded = i % 3 !== 0;
    const right = grounded ? i % 10 !== 1 : i % 9 === 0;
    return { form, id: `${form}${i}`, shape: i % 2 ? 'value' : 'which-paper', signals: signals({ groundValue: grounded ? 1 : 0 }), right, shownBefore: 0.95 };
  }),
);

describe('the answer-confidence fit', () => {
  it('held out form by form, it shows an answer whose evidence lacks the asked value well below one that states it', () => {
    const cv = leaveOneFormOutAnswers(rows, { features: [...ANSWER_CONFIDENCE_FEATURES], l2: 0.1 });
    expect(cv.forms.map((f) => f.form)).toEqual(['a', 'b', 'c']);
    expect(cv.auroc).toBeGreaterThan(0.8);
    expect(cv.wrongBelowHalf).toBeGreaterThan(0.7);
    // The confidence shown before (0.95 for every answer) is far from how often they were right.
    expect(cv.eceBefore).toBeGreaterThan(cv.ece);
    const model = fitAnswerConfidence(rows, cv.candidate, 'test');
    expect(answerConfidence(signals({ groundValue: 0 }), model)!).toBeLessThan(0.5);
    expect(answerConfidence(signals({ groundValue: 1 }), model)!).toBeGreaterThan(0.8);
    // An answer stating none of what was asked is not right, and one whose paper left a stated fact unverified is
    // shown below one half.
    expect(answerConfidence(signals({ answered: 0 }), model)).toBe(0);
    expect(answerConfidence(signals({ unverified: 1 }), model)!).toBeLessThan(0.5);
  });

  it('refuses to fit answers that are all right', () => {
    expect(() =>
      fitAnswerConfidence(
        rows.map((r) => ({ ...r, right: true })),
        { features: ['retrieval'], l2: 1 },
        'x',
      ),
    ).toThrow(/all alike/);
  });
});
