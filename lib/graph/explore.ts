import type { Database } from '../db/database.ts';
import { mergeFamily } from '../db/graph-merges.ts';
import { corpusVersion } from '../db/retrieval-corpus.ts';
import { processObject } from '../common/process-registry.ts';
import { type LabelledTuple, labelledTuples, materialsWithMostValues } from '../db/graph-views.ts';
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

// Reactant gases, fuels and solvents: named in many papers' values ("CO2 yield", "H2 evolution") but not what a
// chemist opens the graph to study.
const REAGENT = /^f:(?:H2|O2|N2|CH4|CO2?|H2O|NH3|H2S|H2O2|N2O|NO2?|SO2|C2H[246]|C2H6O|CH4O|C3H8O|C3H6O|C2H4O2|Ar|He)$/;

interface StartingPoints {
  version: string;
  starts: Promise<{ key: string; label: string; papers: number }[]>;
}

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    graphStartingPoints: WeakMap<Database, StartingPoints>;
  }
}

// One entry per database, in the process registry (Next.js loads the page and the route handlers as separate module
// instances): the grouping reads every value tuple, so it is done once per corpus version, not on every visit.
const kept = () => processObject('graphStartingPoints', () => new WeakMap());

/** Materials /graph offers to start from. */
const STARTING_POINTS = 8;

/**
 * Where the graph opens before anyone searches: the materials with values in the most papers (reagents left out),
 * the first of which is shown with its neighbourhood. Kept per corpus version (the stamp moves with every graph write).
 */
export async function startingPoints(db: Database): Promise<{ key: string; label: string; papers: number }[]> {
  const version = await corpusVersion(db);
  const entry = kept().get(db);
  if (entry?.version === version) return entry.starts;
  const starts = materialsWithMostValues(db, STARTING_POINTS * 3).then((rows) =>
    // A sample's or polymer's label ("P1", "S2") is read as an element by the formula reader: not a material to open on.
    rows.filter((m) => !REAGENT.test(m.key) && !/^[A-Z]\d$/.test(m.label)).slice(0, STARTING_POINTS),
  );
  const made = { version, starts };
  kept().set(db, made);
  // A failed read is not kept: the next visit reads again.
  starts.catch(() => {
    if (kept().get(db) === made) kept().delete(db);
  });
  return starts;
}
