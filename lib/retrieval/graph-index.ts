import type { RetrievalTupleRow } from '../db/graph-views.ts';
import { canonicalUnits, parseQuantities } from '../structure/quantities.ts';
import { plainTerms } from '../structure/terms.ts';
import type { TextEmbedder } from '../embedding/embedder.ts';
import type { QuantityFacet } from './facets.ts';
import { lazyOnce } from '../common/lazy.ts';
import { tupleValue } from '../graph/view.ts';
import { timeSlicer } from '../common/yield.ts';

/**
 * The knowledge graph as the graph pipelines read it, built on first use: every tuple with its text terms
 * (for word-boundary string retrieval), the canonical entities with embedded labels (for canonical retrieval),
 * an inverted index term → tuples, and an undirected adjacency for multi-hop paths.
 */
export interface IndexedTuple extends RetrievalTupleRow {
  /** "subject relation object reference" as one line: what string retrieval and the re-ranker read. */
  text: string;
  terms: Set<string>;
  quantities: QuantityFacet[];
}

export interface CanonicalEntity {
  key: string;
  label: string;
  /** plainTerms of the label, for grounding a question's words on it. */
  terms: string[];
  vector: Float32Array;
  tupleIds: string[];
}

/** One dimension of the entity vectors: which entities have a non-zero component there, and its value. */
export interface EntityColumn {
  entities: Int32Array;
  values: Float32Array;
}

export interface GraphIndex {
  tuples: Map<string, IndexedTuple>;
  byTerm: Map<string, string[]>;
  entities: CanonicalEntity[];
  /**
   * The entity vectors by dimension, non-zeros only: column d lists the entities (indexes into `entities`) whose
   * vector has a non-zero d-th component, and those components. A probe's cosine with all entities then costs the
   * non-zeros of the columns the probe uses: entity labels are short, their vectors mostly zeros, and a dense column
   * per dimension cost canonical retrieval 12 ms a question on the shared corpus.
   */
  entityColumns: EntityColumn[];
  entityByKey: Map<string, CanonicalEntity>;
  /** canonical key → [neighbour canonical key, tuple id][] (edges in both directions). */
  adjacency: Map<string, [string, string][]>;
  /** Any entity key (a merged member's too) → its canonical key. */
  canonicalOf: Map<string, string>;
  /** paper id → its tuple ids. */
  byPaper: Map<string, string[]>;
  /** paragraph id → the tuple ids read from it (the graph's dense entry: paragraphs near the question's meaning). */
  byParagraph: Map<string, string[]>;
  /** canonical key → its outgoing causal tuples (increases / decreases / causes), for tier 1's directed paths. */
  causalOut: Map<string, IndexedTuple[]>;
  buildSeconds: number;
}

export interface LazyGraphIndex {
  get(): Promise<GraphIndex>;
}

export function lazyGraphIndex(load: () => Promise<RetrievalTupleRow[]>, embedder: TextEmbedder): LazyGraphIndex {
  return { get: lazyOnce(() => buildGraphIndex(load, embedder)) };
}

const relationWords = (r: string) => r.replace(/_/g, ' ');
// Tuple values are stored in their dimension's canonical unit, so the unit names the dimension.
const dimensionOfUnit = new Map(Object.entries(canonicalUnits).map(([d, u]) => [u, d]));

/** Adds a value to the list a key holds, starting the list on first use. */
function append<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A tuple as retrieval reads it: its one-line text, its terms and its values (both graph sources index the same). */
export function indexTuple(r: RetrievalTupleRow): IndexedTuple {
  const value = tupleValue(r);
  const text =
    `${r.subjectLabel} ${relationWords(r.relation)} ${r.objectLabel}${value ? ` ${value}` : ''}${r.referenceNode ? ` ${r.referenceRelation ?? ''} ${r.referenceNode}` : ''}`
      .replace(/\s+/g, ' ')
      .trim();
  const terms = new Set([...plainTerms(text), r.subjectCanonical, r.objectCanonical, r.subjectKey, r.objectKey]);
  const quantities = [
    ...(r.value !== null && r.unit
      ? [
          {
            dimension: dimensionOfUnit.get(r.unit) ?? '',
            values: [r.value, ...(r.valueMax !== null && r.valueMax !== r.value ? [r.valueMax] : [])],
            range: r.valueMax !== null && r.valueMax !== r.value,
            text: `${r.value} ${r.unit}`,
          },
        ]
      : []),
    ...(r.referenceNode
      ? parseQuantities(r.referenceNode).map((q) => ({ dimension: q.dimension, values: q.canonical, range: q.kind === 'range', text: q.text }))
      : []),
  ];
  return { ...r, text, terms, quantities };
}

async function buildGraphIndex(load: () => Promise<RetrievalTupleRow[]>, embedder: TextEmbedder): Promise<GraphIndex> {
  const t0 = performance.now();
  const rows = await load();
  const tuples = new Map<string, IndexedTuple>();
  const byTerm = new Map<string, string[]>();
  const entityTuples = new Map<string, { label: string; ids: string[] }>();
  const adjacency = new Map<string, [string, string][]>();
  const canonicalOf = new Map<string, string>();
  const causalOut = new Map<string, IndexedTuple[]>();
  const byPaper = new Map<string, string[]>();
  const byParagraph = new Map<string, string[]>();
  const slice = timeSlicer();
  for (const r of rows) {
    await slice();
    const indexed = indexTuple(r);
    tuples.set(r.id, indexed);
    if (r.paperId) append(byPaper, r.paperId, r.id);
    if (r.paragraphId) append(byParagraph, r.paragraphId, r.id);
    canonicalOf.set(r.subjectKey, r.subjectCanonical);
    canonicalOf.set(r.objectKey, r.objectCanonical);
    if (r.causal) append(causalOut, r.subjectCanonical, indexed);
    for (const t of indexed.terms) append(byTerm, t, r.id);
    for (const [key, label] of [
      [r.subjectCanonical, r.subjectCanonicalLabel],
      [r.objectCanonical, r.objectCanonicalLabel],
    ]) {
      const e = entityTuples.get(key);
      if (e) e.ids.push(r.id);
      else entityTuples.set(key, { label, ids: [r.id] });
    }
    append(adjacency, r.subjectCanonical, [r.objectCanonical, r.id]);
    append(adjacency, r.objectCanonical, [r.subjectCanonical, r.id]);
  }
  const keys = [...entityTuples.keys()];
  const vectors = await embedder.embed(keys.map((k) => entityTuples.get(k)!.label));
  const entities = keys.map((key, i) => {
    const label = entityTuples.get(key)!.label;
    return { key, label, terms: plainTerms(label), vector: vectors[i], tupleIds: entityTuples.get(key)!.ids };
  });
  const dimensions = vectors[0]?.length ?? 0;
  const counts = new Int32Array(dimensions);
  for (const e of entities) for (let d = 0; d < dimensions; d++) if (e.vector[d] !== 0) counts[d]++;
  const entityColumns: EntityColumn[] = Array.from(counts, (n) => ({ entities: new Int32Array(n), values: new Float32Array(n) }));
  const filled = new Int32Array(dimensions);
  entities.forEach((e, i) => {
    for (let d = 0; d < dimensions; d++) {
      const x = e.vector[d];
      if (x === 0) continue;
      const column = entityColumns[d];
      column.entities[filled[d]] = i;
      column.values[filled[d]++] = x;
    }
  });
  return {
    tuples,
    byTerm,
    entities,
    entityColumns,
    entityByKey: new Map(entities.map((e) => [e.key, e])),
    adjacency,
    canonicalOf,
    causalOut,
    byPaper,
    byParagraph,
    buildSeconds: (performance.now() - t0) / 1000,
  };
}
