import type { Database } from '../db/database.ts';
import { type LabelledTuple, labelledTuples, mergeFamily } from '../db/graph.ts';
import { EXPANSION_TUPLES, type GraphData, type GraphNode, type GraphTupleView, tupleValue } from './view.ts';

/** Reads the graph views of `view.ts` from the database: tuples as a graph, an entity's neighbourhood. */

export function tupleView(t: LabelledTuple): GraphTupleView {
  return {
    id: t.id,
    subject: { id: t.subjectKey, label: t.subjectLabel, kind: t.subjectKind },
    relation: t.relation,
    object: { id: t.objectKey, label: t.objectLabel, kind: t.objectKind },
    value: tupleValue(t),
    sentence: t.sentence,
    paperId: t.paperId,
    paragraphId: t.paragraphId,
    paragraphOrdinal: t.paragraphOrdinal,
  };
}

/** Tuples as a graph: one node per entity, one edge per tuple. */
export function graphOf(tuples: LabelledTuple[]): GraphData {
  const nodes = new Map<string, GraphNode>();
  for (const t of tuples) {
    nodes.set(t.subjectKey, { id: t.subjectKey, label: t.subjectLabel, kind: t.subjectKind });
    nodes.set(t.objectKey, { id: t.objectKey, label: t.objectLabel, kind: t.objectKind });
  }
  return {
    nodes: [...nodes.values()],
    edges: tuples.map((t) => ({ id: t.id, source: t.subjectKey, target: t.objectKey, relation: t.relation })),
    tuples: tuples.map(tupleView),
  };
}

/**
 * An entity's neighbourhood: the tuples that have it, or a name canonical clustering merged with it, as subject or
 * object ("grain boundary conductivity" and "grain boundary conductivities" are one concept).
 */
export async function neighbourhood(db: Database, key: string, limit = EXPANSION_TUPLES): Promise<GraphData> {
  return graphOf(await labelledTuples(db, { touching: await mergeFamily(db, key) }, limit));
}
