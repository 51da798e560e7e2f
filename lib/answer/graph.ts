import { type Evidence, paragraphIdsOf, tupleIdsOf } from '../evidence/model.ts';

/** Tuples and paragraphs an answer's graph is read from at most (a bounded request, whatever the answer holds). */
export const ANSWER_GRAPH_MAX_TUPLES = 150;
export const ANSWER_GRAPH_MAX_PARAGRAPHS = 30;

/**
 * Where the graph behind an answer comes from: the tuples its evidence names and the paragraphs it cites (whose
 * tuples are read too), and the tuples of its reasoning paths, which the graph view highlights as the causal path.
 */
export interface AnswerGraphSources {
  tupleIds: string[];
  paragraphIds: string[];
  pathTupleIds: string[];
}

export function answerGraphSources(evidence: Evidence[]): AnswerGraphSources {
  const tupleIds = new Set<string>();
  const paragraphIds = new Set<string>();
  const pathTupleIds = new Set<string>();
  for (const e of evidence) {
    for (const t of tupleIdsOf(e)) {
      tupleIds.add(t);
      if (e.kind === 'path') pathTupleIds.add(t);
    }
    // A tuple's or a path's paragraph is context, not evidence: only cited paragraphs bring all their tuples.
    if (e.kind === 'paragraph' || e.kind === 'chunk') for (const p of paragraphIdsOf(e)) paragraphIds.add(p);
  }
  return {
    tupleIds: [...tupleIds].slice(0, ANSWER_GRAPH_MAX_TUPLES),
    paragraphIds: [...paragraphIds].slice(0, ANSWER_GRAPH_MAX_PARAGRAPHS),
    pathTupleIds: [...pathTupleIds],
  };
}

/** The graph API's query for an answer: `/api/graph/answer?tuple=…&paragraph=…`. */
export function answerGraphQuery(s: Pick<AnswerGraphSources, 'tupleIds' | 'paragraphIds'>): string {
  const q = new URLSearchParams();
  for (const t of s.tupleIds) q.append('tuple', t);
  for (const p of s.paragraphIds) q.append('paragraph', p);
  return q.toString();
}
