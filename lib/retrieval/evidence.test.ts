import { describe, expect, it } from 'vitest';
import { createTrace } from '../common/trace.ts';
import { provenanceOf } from '../evidence/model.ts';
import { corpusOf, indexOf, tupleRow } from '../../scripts/test-support/retrieval-fixtures.ts';
import { evidenceFromTuples, type ScoredTuple } from './evidence.ts';
import { indexTuple } from './graph-index.ts';
import { analyseQuestion } from './question.ts';
import { withQueryPlan } from './query-plan.ts';

// Invented papers and tuples: a synthesis paragraph whose tuples each name one precursor, a paragraph with one tuple
// that names the target and a precursor, and a record (no paragraph) drawn from a third paper.
const papers = [
  { id: 'syn', doi: '10.9999/syn', title: 'A recipe', paragraphs: [{ text: 'QZ3O4 was made. QA2 and QB were added; QC was used.' }] },
  { id: 'one', doi: '10.9999/one', title: 'One claim', paragraphs: [{ text: 'QZ3O4 was prepared from QA2.' }] },
  { id: 'rec', doi: '10.9999/rec', title: 'Recipe record', paragraphs: [{ text: 'Unrelated text.' }] },
];
const M = (key: string): [string, string] => [`n:${key.toLowerCase()}`, key];
const rows = {
  synA: tupleRow('synA', M('QZ3O4'), 'synthesized_from', M('QA2'), 'syn:p1'),
  synB: tupleRow('synB', M('QB'), 'add_to', M('mixture'), 'syn:p1'),
  synC: tupleRow('synC', M('QC'), 'used_as', M('reductant'), 'syn:p1'),
  one: tupleRow('one', M('QZ3O4'), 'synthesized_from', M('QA2'), 'one:p1'),
  recA: tupleRow('recA', M('QZ3O4'), 'synthesized_from', M('QA2'), 'rec:p1', { paragraphId: null, recordId: 'r-1', paperId: 'rec' }),
  recB: tupleRow('recB', M('QZ3O4'), 'synthesized_from', M('QB'), 'rec:p1', { paragraphId: null, recordId: 'r-1', paperId: 'rec' }),
};
const hit = (id: keyof typeof rows, score: number): ScoredTuple => ({ tuple: indexTuple(rows[id]), score, onPath: false });

async function context(question: string) {
  const index = await indexOf(corpusOf(papers));
  return withQueryPlan({ index, analysis: analyseQuestion(question), step: createTrace().step, k: 5 });
}

describe('evidenceFromTuples', () => {
  // Keywords as plainTerms gives them (formula-like names keep their case).
  const weights = new Map([
    ['QZ3O4', 1],
    ['QA2', 1],
    ['QB', 1],
    ['QC', 1],
  ]);
  const hits = [hit('one', 0.6), hit('synA', 0.55), hit('recA', 0.5), hit('synB', 0.3), hit('recB', 0.3), hit('synC', 0.3)];

  it('ranks the item whose tuples cover the question together above the one with the best single tuple', async () => {
    const ctx = await context('Which paper makes QZ3O4 from QA2, QB and QC?');
    const plain = evidenceFromTuples(ctx, hits);
    expect(plain.evidence[0].paperId).toBe('one');
    const joint = evidenceFromTuples(ctx, hits, { keywordWeights: weights, coverageWeight: 0.3 });
    // syn: 0.55 + 0.3 × 4/4; one: 0.6 + 0.3 × 2/4; rec: 0.5 + 0.3 × 3/4.
    expect(joint.evidence.map((e) => e.paperId)).toEqual(['syn', 'one', 'rec']);
    expect(joint.evidence[0].score).toBeCloseTo(0.55 + 0.3 * 1, 6);
  });

  it('turns tuples drawn from a record into record evidence with the paper and the tuples as provenance', async () => {
    const ctx = await context('Which paper makes QZ3O4 from QA2, QB and QC?');
    const record = evidenceFromTuples(ctx, hits).evidence.find((e) => e.kind === 'record')!;
    expect(record.id).toBe('record:r-1');
    expect(record.doi).toBe('10.9999/rec');
    expect(record.text).toContain('QZ3O4 synthesized from QA2');
    expect(provenanceOf(record, 'record')).toEqual([{ kind: 'record', recordId: 'r-1' }]);
    expect(provenanceOf(record, 'tuple').map((t) => t.tupleId)).toEqual(['recA', 'recB']);
  });

  it('drops tuples that name neither a known paragraph nor a record of a known paper', async () => {
    const ctx = await context('QZ3O4?');
    const stray = { tuple: indexTuple(tupleRow('x', M('QZ3O4'), 'synthesized_from', M('QA2'), 'gone:p9', { paperId: 'gone' })), score: 1, onPath: false };
    const orphanRecord = {
      tuple: indexTuple(tupleRow('y', M('QZ3O4'), 'synthesized_from', M('QA2'), 'gone:p9', { paragraphId: null, recordId: 'r-9', paperId: 'gone' })),
      score: 1,
      onPath: false,
    };
    expect(evidenceFromTuples(ctx, [stray, orphanRecord]).evidence).toEqual([]);
  });
});
