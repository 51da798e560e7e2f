import { describe, expect, it } from 'vitest';
import type { Answer } from '../answer/types.ts';
import { campaignResults, type ResultsInput } from './results.ts';

const sentence = (verdict: Answer['sentences'][number]['verdict'], cited = true, flags: string[] = []) => ({
  text: 's',
  citations: cited ? ['paragraph:x'] : [],
  verdict,
  check: null,
  flags,
});

/** Two pipelines, six questions, two experts; pipeline "good" is scored higher on every item. */
function input(): ResultsInput {
  return {
    rubric: 'content-citation',
    pipelines: ['good', 'weak'],
    items: Array.from({ length: 6 }, (_, i) => ({
      id: `i${i}`,
      ordinal: i,
      question: `q${i}`,
      type: i % 2 ? 'value' : 'doi',
      answers: [
        { id: `g${i}`, pipeline: 'good', answer: { sentences: [sentence('supported'), sentence('unsupported', true, ['citation-removed'])] } },
        { id: `w${i}`, pipeline: 'weak', answer: { sentences: [sentence('uncited', false)] } },
      ],
      grades: ['ann', 'bob'].map((grader, k) => ({
        graderId: grader,
        judge: null,
        submitted: true,
        marks: {
          scores: { [`g${i}`]: { content: 4 + (k && i % 3 === 0 ? 1 : 0), citation: 4 }, [`w${i}`]: { content: 1 + (i % 2), citation: k && i === 5 ? 5 : 1 } },
          claims: { [`g${i}`]: { '0': 'supported', '1': 'wrong-citation' }, [`w${i}`]: { '0': 'unsupported' } },
        },
      })),
    })),
  };
}

describe('campaign results', () => {
  it('ranks pipelines with paired intervals, win rates and per-type means', () => {
    const r = campaignResults(input());
    expect(r.primary).toBe('total');
    expect(r.gradedItems).toBe(6);
    const good = r.scores.good.total!;
    const weak = r.scores.weak.total!;
    expect(good.mean).toBeGreaterThan(weak.mean);
    expect(good.low).toBeLessThanOrEqual(good.mean);
    expect(good.high).toBeGreaterThanOrEqual(good.mean);
    expect(r.differences[0].interval!.low).toBeGreaterThan(0); // good beats weak on every question
    expect(r.winRates[0]).toMatchObject({ a: 'good', b: 'weak', wins: 6, ties: 0, losses: 0 });
    expect(Object.keys(r.byType).sort()).toEqual(['doi', 'value']);
  });

  it('measures agreement, lists disagreements, and compares the verifier with the experts’ claim marks', () => {
    const r = campaignResults(input());
    expect(r.agreement.pairs).toHaveLength(1);
    expect(r.agreement.pairs[0].units).toBe(12);
    expect(r.agreement.alpha.content).toBeGreaterThan(0.5);
    // Item 5: bob scored weak's citation 5 where ann scored 1: a disagreement to adjudicate.
    expect(r.disagreements.map((d) => d.ordinal)).toEqual([5]);
    // Experts: 1 supported of 3 marks per item pair of graders; the verifier agrees on every sentence here.
    expect(r.claims.marked).toBe(36);
    expect(r.claims.experts.recall).toBeCloseTo(1 / 3, 10);
    expect(r.claims.verifier).toEqual(r.claims.experts);
    expect(r.claims.kappa).toBe(1);
  });

  it('ignores drafts, and adds a judge model as one more rater', () => {
    const data = input();
    data.items[0].grades.push({ graderId: 'cyd', judge: null, submitted: false, marks: { scores: { g0: { content: 0, citation: 0 } } } });
    for (const item of data.items)
      item.grades.push({
        graderId: null,
        judge: 'fake-judge',
        submitted: true,
        marks: { scores: { [`g${item.ordinal}`]: { content: 4, citation: 4 }, [`w${item.ordinal}`]: { content: 1, citation: 1 } } },
      });
    const r = campaignResults(data);
    expect(r.agreement.pairs.map((p) => [p.a, p.b])).toEqual([['ann', 'bob']]);
    expect(r.agreement.judge?.judge).toBe('fake-judge');
    expect(r.agreement.judge?.pairs.map((p) => p.expert)).toEqual(['ann', 'bob']);
    expect(r.agreement.judge?.pairs[0].kappa).toBeGreaterThan(0.5);
  });

  it('scores a pairwise campaign by preferences', () => {
    const data = input();
    data.rubric = 'pairwise';
    for (const item of data.items)
      item.grades = ['ann', 'bob'].map((g, k) => ({
        graderId: g,
        judge: null,
        submitted: true,
        marks: { preference: { winner: k && item.ordinal === 0 ? 'tie' : `g${item.ordinal}`, reason: 'cites the value' } },
      }));
    const r = campaignResults(data);
    expect(r.scores.good.preference!.mean).toBeCloseTo((5 + 0.75) / 6, 10);
    expect(r.winRates[0].wins).toBe(6);
    expect(r.agreement.pairs[0].kappa).not.toBeUndefined();
    expect(r.disagreements).toEqual([]);
  });
});
