import { describe, expect, it } from 'vitest';
import { gradingKeyAction, type KeyContext, TEN_WINDOW_MS } from './grading-keys';

const scale = (max: number) => ({ min: 0, max });
const ctx = (over: Partial<KeyContext> = {}): KeyContext => ({
  criteria: [scale(5), scale(5)],
  answers: 2,
  pairwise: false,
  focus: { answer: 0, criterion: 0 },
  lastDigit: null,
  ...over,
});

describe('the grading keys', () => {
  it('score the focused criterion and move to the next one, staying on the last', () => {
    expect(gradingKeyAction('4', 0, ctx())).toEqual({ kind: 'score', answer: 0, criterion: 0, value: 4, focus: { answer: 0, criterion: 1 } });
    expect(gradingKeyAction('2', 0, ctx({ focus: { answer: 1, criterion: 1 } }))).toMatchObject({
      answer: 1,
      criterion: 1,
      focus: { answer: 1, criterion: 1 },
    });
  });

  it('read 1 then 0 within a moment as 10 on a 0–10 scale, and wait after the 1', () => {
    const ten = ctx({ criteria: [scale(10), scale(10)] });
    expect(gradingKeyAction('1', 1000, ten)).toMatchObject({ value: 1, focus: { criterion: 0 } });
    const after = { ...ten, lastDigit: { digit: '1', at: 1000 } };
    expect(gradingKeyAction('0', 1000 + TEN_WINDOW_MS - 1, after)).toMatchObject({ value: 10, focus: { criterion: 1 } });
    expect(gradingKeyAction('0', 1000 + TEN_WINDOW_MS + 1, after)).toMatchObject({ value: 0 });
    // On a 0–5 scale a 1 is a 1 and moves on.
    expect(gradingKeyAction('1', 0, ctx())).toMatchObject({ value: 1, focus: { criterion: 1 } });
  });

  it('move between criteria and answers within bounds', () => {
    expect(gradingKeyAction('ArrowDown', 0, ctx())).toEqual({ kind: 'focus', answer: 0, criterion: 1 });
    expect(gradingKeyAction('k', 0, ctx())).toEqual({ kind: 'focus', answer: 0, criterion: 0 });
    expect(gradingKeyAction('l', 0, ctx({ focus: { answer: 1, criterion: 1 } }))).toEqual({ kind: 'focus', answer: 1, criterion: 0 });
    expect(gradingKeyAction('ArrowLeft', 0, ctx({ focus: { answer: 1, criterion: 1 } }))).toEqual({ kind: 'focus', answer: 0, criterion: 0 });
  });

  it('give preferences only on a pairwise rubric, where digits do nothing', () => {
    expect(gradingKeyAction('a', 0, ctx())).toBeNull();
    expect(gradingKeyAction('t', 0, ctx({ pairwise: true }))).toEqual({ kind: 'prefer', slot: 'tie' });
    expect(gradingKeyAction('b', 0, ctx({ pairwise: true }))).toEqual({ kind: 'prefer', slot: 'b' });
    expect(gradingKeyAction('3', 0, ctx({ pairwise: true }))).toBeNull();
  });

  it('move between items, submit and open the guidelines; other keys are left alone', () => {
    expect(['n', 'p', 'Enter', '?', 'x'].map((k) => gradingKeyAction(k, 0, ctx())?.kind ?? null)).toEqual(['next', 'previous', 'submit', 'guidelines', null]);
  });
});
