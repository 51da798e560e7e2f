import type { Database } from '../db/database.ts';
import { mergeFamily } from '../db/graph-merges.ts';
import { type LabelledTuple, labelledTuples } from '../db/graph-views.ts';
import { EXPANSION_TUPLES, type GraphData, type GraphNode, type GraphTupleView, mergeGraphs, tupleValue } from './view.ts';

/** Reads the graph views of `view.ts` from the database: tuples as a graph, an entity's neighbourhood. */

export function tupleView(t: LabelledTuple): GraphTupleView {
  return {
    id: t.id,
    subject: { id: t.subjectKey, label: t.subjectLabel, kind: t.subjectKind, mergedInto: t.subjectMergedInto },
    relation: t.relation,
    object: { id: t.objectKey, label: t.objectLabel, kind: t.objectKind, mergedInto: t.objectMergedInto },
    value: tupleValue(t),
    sentence: t.sentence,
    paperId: t.paperId,
    paragraphId: t.paragraphId,
    paragraphOrdinal: t.paragraphOrdinal,
  };
}

/** Tuples as a graph: one node per entity, one edge per tuple. */
export function graphOf(tuples: LabelledTuple[]): GraphData {
  const views = tuples.map(tupleView);
  const nodes = new Map<string, GraphNode>();
  for (const t of views) {
    nodes.set(t.subject.id, t.subject);
    nodes.set(t.object.id, t.object);
  }
  return {
    nodes: [...nodes.values()],
    edges: tuples.map((t) => ({ id: t.id, source: t.subjectKey, target: t.objectKey, relation: t.relation })),
    tuples: views,
  };
}

/** Tuples an answer's graph reads at most (its nodes are then capped at GRAPH_NODE_CAP). */
export const ANSWER_GRAPH_TUPLES = 400;

/**
 * The subgraph behind an answer: the tuples its evidence names (tuple items, the tuples a paragraph was found
 * through, the steps of a reasoning path) and the tuples of its cited paragraphs, the named ones kept first when
 * the cap is reached.
 */
export async function answerGraph(db: Database, from: { tupleIds: string[]; paragraphIds: string[] }): Promise<GraphData> {
  const g = graphOf(await labelledTuples(db, { ids: from.tupleIds, paragraphIds: from.paragraphIds }, ANSWER_GRAPH_TUPLES));
  return mergeGraphs({ nodes: [], edges: [], tuples: [] }, g);
}

/**
 * An entity's neighbourhood: the tuples that have it, or a name canonical clustering merged with it, as subject or
 * object ("grain boundary conductivity" and "grain boundary conductivities" are one concept).
 */
export async function neighbourhood(db: Database, key: string, limit = EXPANSION_TUPLES): Promise<GraphData> {
  return graphOf(await labelledTuples(db, { touching: await mergeFamily(db, key) }, limit));
}
