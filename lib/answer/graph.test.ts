import { describe, expect, it } from 'vitest';
import { type Evidence, noMatchedFacets } from '../evidence/model.ts';
import { ANSWER_GRAPH_MAX_TUPLES, answerGraphQuery, answerGraphSources } from './graph.ts';

const para = (paragraphId: string) => ({ kind: 'paragraph' as const, paperId: 'x', paragraphId, ordinal: 0, externalId: null, section: null });
const item = (id: string, kind: Evidence['kind'], provenance: Evidence['provenance']): Evidence => ({
  id,
  kind,
  text: id,
  score: 1,
  coverage: null,
  matched: noMatchedFacets(),
  paperId: null,
  doi: null,
  section: null,
  provenance,
});

describe('answerGraphSources', () => {
  it('reads the tuples every item names, the tuples of cited paragraphs, and marks the reasoning path', () => {
    const s = answerGraphSources([
      item('paragraph:p1', 'paragraph', [para('p1'), { kind: 'tuple', tupleId: 't1' }]),
      item('tuple:t2', 'tuple', [{ kind: 'tuple', tupleId: 't2' }, para('p2')]),
      item('path:t3>t4', 'path', [{ kind: 'tuple', tupleId: 't3' }, { kind: 'tuple', tupleId: 't4' }, para('p3')]),
    ]);
    // A tuple's or a path's paragraph is where it was read, not evidence: its other tuples stay out.
    expect(s).toEqual({ tupleIds: ['t1', 't2', 't3', 't4'], paragraphIds: ['p1'], pathTupleIds: ['t3', 't4'] });
    expect(answerGraphQuery(s)).toBe('tuple=t1&tuple=t2&tuple=t3&tuple=t4&paragraph=p1');
  });
  it('bounds what it asks for', () => {
    const many = Array.from({ length: 400 }, (_, i) => item(`tuple:t${i}`, 'tuple', [{ kind: 'tuple', tupleId: `t${i}` }]));
    expect(answerGraphSources(many).tupleIds).toHaveLength(ANSWER_GRAPH_MAX_TUPLES);
  });
});
