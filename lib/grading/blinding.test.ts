import { describe, expect, it } from 'vitest';
import type { Answer } from '../answer/types.ts';
import type { Evidence } from '../evidence/model.ts';
import { answerOrder, slotToken } from './assignment.ts';
import { blindAnswer, renameMarks, slotTokens } from './grader-view.ts';

/**
 * Blind grading as a grader would try to break it from their own page, which holds their id, the item's id, the
 * slots' tokens and the blinded answers. Each guess below names the pipeline of slot A; over 600 items with two
 * pipelines, a guess at chance is right about half the time. The bounds are 4.1 standard deviations either side
 * (600 fair coins fall outside them about once in 25,000 draws), and the key is fixed, so the test does not flake.
 */
const ITEMS = 600;
const KEY = 'a server key no grader sees';
const PIPELINES = ['bm25', 'hybrid'];
const grader = 'user_2Nq8grader';

/** A time-ordered row id, as cuid and UUID v7 are: answers are made in pipeline order, so ids sort that way. */
const rowId = (n: number) => `c${n.toString(36).padStart(10, '0')}`;

const items = Array.from({ length: ITEMS }, (_, i) => ({
  id: `item_${i.toString(36)}`,
  answers: PIPELINES.map((pipeline, j) => ({ id: rowId(i * 2 + j), pipeline })),
}));

function slots(item: (typeof items)[number]) {
  const sorted = [...item.answers].sort((x, y) => (x.id < y.id ? -1 : 1));
  const shown = answerOrder(sorted, grader, item.id, KEY);
  return shown.map((a) => ({ pipeline: a.pipeline, token: slotToken(KEY, grader, a.id) }));
}

const chance = (right: number) => {
  const sd = Math.sqrt(ITEMS * 0.25);
  expect(right).toBeGreaterThan(ITEMS / 2 - 4.1 * sd);
  expect(right).toBeLessThan(ITEMS / 2 + 4.1 * sd);
};

describe('blind grading gives a grader no better than chance', () => {
  it('the slot order: neither its position nor the hash of what the page shows names the pipeline', () => {
    const shown = items.map(slots);
    // "A is always the first pipeline"
    chance(shown.filter((s) => s[0].pipeline === 'bm25').length);
    // The attack that worked: recomputing the order from the grader's and item's ids without the key.
    for (const guessKey of ['', 'assay', grader]) {
      const right = items.filter((item, i) => {
        const guess = answerOrder(
          [...item.answers].sort((x, y) => (x.id < y.id ? -1 : 1)),
          grader,
          item.id,
          guessKey,
        );
        return guess[0].pipeline === shown[i][0].pipeline;
      }).length;
      chance(right);
    }
  });

  it('the slot tokens: their order says nothing of when (so in which pipeline order) the answers were made', () => {
    const right = items.map(slots).filter((s) => (s[0].token < s[1].token ? s[0] : s[1]).pipeline === 'bm25').length;
    chance(right);
    // And another grader's tokens for the same answers are others.
    expect(slotToken(KEY, 'another', rowId(0))).not.toBe(slotToken(KEY, grader, rowId(0)));
  });

  it('the blinded payload has the same fields for every pipeline, and none of the metadata that differs by pipeline', () => {
    const evidence = (id: string, extra: Partial<Evidence>): Evidence => ({
      id,
      kind: 'paragraph',
      text: 'LSCF showed 120 S cm-1 at 700 °C.',
      score: 0.91,
      coverage: 1,
      matched: { materials: ['f:LSCF'], quantities: ['conductivity'], properties: [] },
      paperId: 'p1',
      doi: '10.1/x',
      section: 'Results',
      provenance: [{ kind: 'paper', paperId: 'p1', doi: '10.1/x', title: 'A paper' }],
      ...extra,
    });
    const answer = (pipeline: string, extra: Partial<Answer>): Answer => ({
      question: 'What is the conductivity of LSCF at 700 °C?',
      pipeline,
      mode: 'extractive',
      modelId: null,
      shape: 'value',
      sentences: [{ text: 'LSCF conducts 120 S cm-1 at 700 °C.', citations: ['paragraph:a'], verdict: 'supported', check: null, flags: [] }],
      table: null,
      disagreement: null,
      abstention: { abstain: false, reasons: [], explanation: '', corpusHolds: null },
      evidence: [evidence('paragraph:a', {})],
      notice: null,
      confidence: 0.9,
      trace: [{ step: 'retrieve', label: pipeline, ms: 12 } as unknown as Answer['trace'][number]],
      tokens: null,
      latencyMs: 40,
      ...extra,
    });
    const graph = blindAnswer(
      answer('graph', {
        confidence: 0.97,
        notice: 'tiered reasoning: tier 2',
        abstention: { abstain: false, reasons: ['low-score'], explanation: '', corpusHolds: null },
        evidence: [evidence('paragraph:a', { onPath: true, score: 3.2 }), evidence('paragraph:b', {}), evidence('paragraph:c', {})],
        latencyMs: 400,
        costUsd: 0.01,
      }),
    );
    const bm25 = blindAnswer(answer('bm25', {}));
    const shape = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(shape) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)])) : typeof v;
    expect(shape(graph)).toEqual(shape(bm25));
    expect(graph).toEqual(bm25);
    expect(graph.evidence).toHaveLength(1); // only what the answer cites
  });

  it('marks go to the grader under their tokens and back to the rows under their ids', () => {
    const ids = [rowId(1), rowId(2)];
    const t = slotTokens(ids, grader, KEY);
    const stored = {
      scores: { [ids[0]]: { content: 3 } },
      preference: { winner: ids[1], reason: 'cites the right paper' },
      claims: { [ids[1]]: { '0': 'supported' as const } },
      flags: [{ answerId: ids[0], evidenceId: 'paragraph:x', kind: 'wrong-paragraph' as const, comment: '' }],
      comment: 'ok',
    };
    const shown = renameMarks(stored, t.toToken);
    expect(JSON.stringify(shown)).not.toMatch(new RegExp(ids.join('|')));
    expect(renameMarks(shown, t.toId)).toEqual(stored);
    // A token of another grader's names nothing here, and stays as sent (checkMarks refuses it by name).
    const foreign = slotToken(KEY, 'another', ids[0]);
    expect(t.toId(foreign)).toBe(foreign);
  });
});
