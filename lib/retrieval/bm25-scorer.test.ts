import { describe, expect, it } from 'vitest';
import { topMatched } from './bm25-scorer.ts';

/** What the scorer did before topMatched: an object per match, a stable sort of them all, a cut. */
function sortedCut(matched: number[], score: (d: number) => number, limit: number) {
  return matched
    .map((d) => ({ id: `p${d}`, score: score(d) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe('topMatched', () => {
  it('gives what a stable sort of every match and a cut give, ties at the cut included', () => {
    const next = random(7);
    for (let trial = 0; trial < 200; trial++) {
      const n = Math.floor(next() * 400);
      // Matched in an arbitrary order, as the postings of several words are walked.
      const matched = Array.from({ length: n }, (_, i) => i).sort(() => next() - 0.5);
      // Few distinct scores, so that many tie, at the cut and above it.
      const levels = 1 + Math.floor(next() * 6);
      const scores = new Map(matched.map((d) => [d, Math.floor(next() * levels) / 2]));
      const limit = Math.floor(next() * 120);
      const score = (d: number) => scores.get(d)!;
      expect(topMatched(matched, score, limit, (d) => `p${d}`)).toEqual(sortedCut(matched, score, limit));
    }
  });

  it('keeps every match when there are fewer than the limit, best first', () => {
    const score = (d: number) => [0.5, 2, 1][d];
    expect(topMatched([0, 1, 2], score, 10, String)).toEqual([
      { id: '1', score: 2 },
      { id: '2', score: 1 },
      { id: '0', score: 0.5 },
    ]);
    expect(topMatched([], score, 10, String)).toEqual([]);
    expect(topMatched([0, 1], score, 0, String)).toEqual([]);
  });
});
