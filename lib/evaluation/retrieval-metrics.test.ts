import type { Evidence } from '../evidence/model.ts';
import { describe, expect, it } from 'vitest';
import type { EvaluationQuestion } from './questions.ts';
import { aggregate, percentile, scoreQuestion } from './retrieval-metrics.ts';
import { valueFound } from './values.ts';

const paper = (paperId: string, doi: string | null) => ({ paperId, doi, title: null, score: 1, evidenceIds: [] });
const evidence = (externalId: string, text: string): Evidence => ({
  kind: 'paragraph',
  id: `paragraph:${externalId}`,
  paperId: 'x',
  doi: null,
  section: null,
  text,
  score: 1,
  coverage: null,
  matched: { materials: [], quantities: [], properties: [] },
  provenance: [{ kind: 'paragraph', paperId: 'x', paragraphId: externalId, ordinal: 1, externalId, section: null }],
});
const result = (papers: ReturnType<typeof paper>[], ev: ReturnType<typeof evidence>[], abstain = false, latencyMs = 10) => ({
  papers,
  evidence: ev,
  value: null,
  abstention: { abstain, confidence: abstain ? 0 : 1, calibrated: abstain ? 0 : 1, reasons: [], explanation: '' },
  latencyMs,
});
const sourceIds = new Map([
  ['a', 'paper-a'],
  ['b', 'paper-b'],
  ['c', 'paper-c'],
]);

const doiQ = (id: string, doi: string | null, paperId: string, paragraph: string | null = null): EvaluationQuestion => ({
  id,
  type: 'doi',
  question: 'Which paper…?',
  answer_doi: doi,
  answer_paper_id: paperId,
  evidence: { paper_id: paperId, paragraph_id: paragraph, text: null },
  source: 'S1',
});

describe('scoreQuestion', () => {
  it('finds the answer paper by DOI (any case) or, without a DOI, by corpus paper id, and its rank', () => {
    const s = scoreQuestion(
      doiQ('q1', '10.1/ABC', 'paper-b', 'paper-b:p2'),
      result([paper('a', '10.1/x'), paper('b', '10.1/abc')], [evidence('paper-a:p1', ''), evidence('paper-b:p2', '')]),
      sourceIds,
    );
    expect(s).toMatchObject({ rank: 2, doiAt1: false, doiAt5: true, paragraphAt5: true });
    const noDoi = scoreQuestion(doiQ('q2', null, 'paper-c'), result([paper('c', null)], []), sourceIds);
    expect(noDoi).toMatchObject({ rank: 1, doiAt1: true, paragraphAt5: null });
  });
  it('scores value questions by the value in the top 3 evidence, in any unit', () => {
    const q: EvaluationQuestion = {
      id: 'v',
      type: 'value',
      question: 'In "T", what temperature?',
      answer_value: '200 degC',
      answer_paper_id: 'paper-a',
      source: 'S2',
    };
    expect(scoreQuestion(q, result([], [evidence('e1', 'nothing'), evidence('e2', 'heated to 473.15 K for 2 h')]), sourceIds).valueAt3).toBe(true);
    expect(scoreQuestion(q, result([], [evidence('e1', 'a'), evidence('e2', 'b'), evidence('e3', 'c'), evidence('e4', 'at 200 °C')]), sourceIds).valueAt3).toBe(
      false,
    );
  });
  it('counts unanswerable questions only for abstention', () => {
    const q: EvaluationQuestion = { id: 'u', type: 'unanswerable', question: '?', source: 'K' };
    expect(scoreQuestion(q, result([paper('a', 'x')], [], true), sourceIds)).toMatchObject({ rank: null, doiAt1: null, abstained: true });
  });
});

describe('aggregate', () => {
  it('computes every rate over the questions it applies to', () => {
    const scores = [
      {
        questionId: '1',
        type: 'doi' as const,
        source: 'A',
        rank: 1,
        doiAt1: true,
        doiAt5: true,
        paragraphAt5: true,
        valueAt3: null,
        abstained: false,
        latencyMs: 10,
      },
      {
        questionId: '2',
        type: 'doi' as const,
        source: 'A',
        rank: 4,
        doiAt1: false,
        doiAt5: true,
        paragraphAt5: false,
        valueAt3: null,
        abstained: true,
        latencyMs: 20,
      },
      {
        questionId: '3',
        type: 'doi' as const,
        source: 'A',
        rank: null,
        doiAt1: false,
        doiAt5: false,
        paragraphAt5: null,
        valueAt3: null,
        abstained: false,
        latencyMs: 30,
      },
      {
        questionId: '4',
        type: 'value' as const,
        source: 'B',
        rank: 1,
        doiAt1: null,
        doiAt5: null,
        paragraphAt5: true,
        valueAt3: true,
        abstained: false,
        latencyMs: 40,
      },
      {
        questionId: '5',
        type: 'unanswerable' as const,
        source: 'C',
        rank: null,
        doiAt1: null,
        doiAt5: null,
        paragraphAt5: null,
        valueAt3: null,
        abstained: true,
        latencyMs: 50,
      },
      {
        questionId: '6',
        type: 'unanswerable' as const,
        source: 'C',
        rank: null,
        doiAt1: null,
        doiAt5: null,
        paragraphAt5: null,
        valueAt3: null,
        abstained: false,
        latencyMs: 60,
      },
    ];
    const m = aggregate(scores);
    expect(m).toMatchObject({
      questions: 6,
      answerable: 4,
      doi_at_1: 0.333,
      doi_at_5: 0.667,
      mrr: Math.round(((1 + 0.25 + 0) / 3) * 1000) / 1000,
      recall_at_5_paragraph: 0.667,
      value_at_3: 1,
      abstain_rate_unanswerable: 0.5,
      false_abstain_rate: 0.25,
      latency_ms: { p50: 30, p95: 60 },
    });
  });
  it('reports null, not zero, for metrics without questions', () => {
    const m = aggregate([
      {
        questionId: '1',
        type: 'value',
        source: null,
        rank: null,
        doiAt1: null,
        doiAt5: null,
        paragraphAt5: null,
        valueAt3: false,
        abstained: false,
        latencyMs: 1,
      },
    ]);
    expect(m.doi_at_1).toBeNull();
    expect(m.abstain_rate_unanswerable).toBeNull();
    expect(m.value_at_3).toBe(0);
  });
});

describe('valueFound and percentile', () => {
  it('compares values in canonical units, falls back to text for unitless values', () => {
    expect(valueFound('3.3 ± 0.5 nm', ['a diameter of 33 Å was measured'])).toBe(true);
    expect(valueFound('1.5 K', ['Tc = 1.6 K'])).toBe(false);
    expect(valueFound('x = 0.25', ['for x = 0.25 the phase'])).toBe(true);
  });
  it('uses the nearest-rank definition', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        95,
      ),
    ).toBe(95);
    expect(percentile([], 95)).toBe(0);
  });
});
