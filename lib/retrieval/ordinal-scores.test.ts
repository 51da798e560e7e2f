import { describe, expect, it } from 'vitest';
import { CutArrays, OrdinalScores } from './ordinal-scores.ts';

describe('OrdinalScores', () => {
  it('keeps the best score of each ordinal, lists them in the order they came, and reads 0 for the rest', () => {
    const s = OrdinalScores.take(10);
    s.raise(7, 0.7);
    s.raise(3, 1);
    s.raise(7, 0.9);
    s.raise(3, 0.8);
    s.set(5, 0);
    expect(s.size).toBe(3);
    expect([0, 1, 2].map((i) => s.at(i))).toEqual([7, 3, 5]);
    expect([s.get(7), s.get(3), s.get(5), s.get(4)]).toEqual([0.9, 1, 0, 0]);
    expect([s.has(5), s.has(4), s.has(999)]).toEqual([true, false, false]);
    s.release();
  });

  it('grows for ordinals past its size (a source that numbers ids as they come) and keeps past many members', () => {
    const s = OrdinalScores.take(2);
    for (let o = 0; o < 500; o++) s.raise(o * 3, o / 1000);
    expect(s.size).toBe(500);
    expect(s.get(1497)).toBe(0.499);
    expect(s.at(499)).toBe(1497);
    s.release();
  });

  it('comes back from a release with no score left over', () => {
    const first = OrdinalScores.take(100);
    for (const o of [4, 40, 99]) first.raise(o, 0.5);
    first.release();
    const again = OrdinalScores.take(100);
    expect(again.size).toBe(0);
    expect([4, 40, 99].some((o) => again.has(o))).toBe(false);
    again.release();
  });
});

describe('CutArrays', () => {
  it('gives lists of at least the size asked for, reused once released', () => {
    const a = CutArrays.take(1000);
    expect([a.candidates.length, a.raw.length, a.kept.length].every((n) => n >= 1000)).toBe(true);
    a.release();
    const b = CutArrays.take(10);
    expect(b).toBe(a);
    b.release();
  });
});
