import type { RetrievalTupleRow } from '../db/graph-views.ts';
import { canonicalUnits, parseQuantities } from '../structure/quantities.ts';
import { plainTerms } from '../structure/terms.ts';
import type { TextEmbedder } from '../embedding/embedder.ts';
import type { QuantityFacet } from './facets.ts';
import { internStrings } from '../common/intern.ts';
import { lazyOnce } from '../common/lazy.ts';
import { tupleValue } from '../graph/view.ts';
import { timeSlicer } from '../common/yield.ts';
import { type PackedRows, packRows, unpackRows } from '../common/packed-rows.ts';

/**
 * The knowledge graph as the graph pipelines read it, built on first use: every tuple with its text terms
 * (for word-boundary string retrieval), the canonical entities with embedded labels (for canonical retrieval),
 * an inverted index term → tuples, and an undirected adjacency for multi-hop paths.
 */
export interface IndexedTuple extends RetrievalTupleRow {
  /** "subject relation object reference" as one line: what string retrieval and the re-ranker read. */
  text: string;
  /**
   * Its distinct terms. An array, not a Set: a question reads them for a few hundred candidate tuples, and a Set
   * each cost 75 MB more at ten times the shared corpus (369,000 tuples).
   */
  terms: readonly string[];
  quantities: QuantityFacet[];
}

export interface CanonicalEntity {
  key: string;
  label: string;
  /** plainTerms of the label, for grounding a question's words on it. */
  terms: string[];
  vector: Float32Array;
  tupleIds: string[];
  /** The same tuples by ordinal (`tupleIds` of the index), in the same order: what the graph pipelines score. */
  tupleOrdinals: Int32Array;
}

/** One dimension of the entity vectors: which entities have a non-zero component there, and its value. */
export interface EntityColumn {
  entities: Int32Array;
  values: Float32Array;
}

export interface GraphIndex {
  tuples: Map<string, IndexedTuple>;
  /** Every tuple's id by its ordinal: the order the tuples were indexed in (by id, as the database lists them). */
  tupleIds: string[];
  /**
   * Whether `tupleIds` ascend by JavaScript's `<` (the database's order is its collation's), so that ties broken by
   * id can be broken by ordinal.
   */
  idsAscending: boolean;
  /**
   * term → the ordinals of the tuples holding it, ascending. Ordinals in typed arrays, not ids: string retrieval
   * counts a question's keywords over these lists, and at ten times the shared corpus one keyword ("TiO2") is held
   * by 70,000 tuples; counting them in a map keyed by id cost 40 ms of a question.
   */
  byTerm: Map<string, Int32Array>;
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
  /** paper id → its tuples' ordinals, ascending. */
  byPaper: Map<string, number[]>;
  /** paragraph id → the ordinals of the tuples read from it (the dense entry: paragraphs near the question's meaning). */
  byParagraph: Map<string, number[]>;
  /** canonical key → its outgoing causal tuples (increases / decreases / causes), for tier 1's directed paths. */
  causalOut: Map<string, IndexedTuple[]>;
  buildSeconds: number;
}

export interface LazyGraphIndex {
  get(): Promise<GraphIndex>;
}

/**
 * The graph index of the tuples `loadPage` gives a page at a time, made on first use the one way a graph index is
 * made: in its stored form (storedGraphFromPages, what a data folder keeps), then assembled from it as a restart
 * assembles the one it reads back.
 */
export function lazyGraphIndex(loadPage: (after: string | null) => Promise<RetrievalTupleRow[]>, embedder: TextEmbedder): LazyGraphIndex {
  return {
    get: lazyOnce(async () => {
      const t0 = performance.now();
      const graph = graphIndexFrom(await storedGraphFromPages(loadPage, embedder));
      return { ...graph, buildSeconds: (performance.now() - t0) / 1000 };
    }),
  };
}

const relationWords = (r: string) => r.replace(/_/g, ' ');
// Tuple values are stored in their dimension's canonical unit, so the unit names the dimension.
const dimensionOfUnit = new Map(Object.entries(canonicalUnits).map(([d, u]) => [u, d]));

/** Adds a value to the list a key holds, starting the list on first use. */
export function append<K, V>(map: Map<K, V[]>, key: K, value: V) {
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
  const terms = [...new Set([...plainTerms(text), r.subjectCanonical, r.objectCanonical, r.subjectKey, r.objectKey])];
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
  // Written out field by field, not spread from the row: a database row becomes a hash-table object in V8 (its keys
  // were added one by one; see unpackRows for what such rows cost), and a spread copies that. At ten times the shared
  // corpus, this and sharing the rows' strings (storedGraphFromPages) took the graph pipeline's p50 on a built graph from 52 to 44-47 ms.
  return {
    id: r.id,
    subjectKey: r.subjectKey,
    subjectLabel: r.subjectLabel,
    subjectCanonical: r.subjectCanonical,
    subjectCanonicalLabel: r.subjectCanonicalLabel,
    relation: r.relation,
    objectKey: r.objectKey,
    objectLabel: r.objectLabel,
    objectCanonical: r.objectCanonical,
    objectCanonicalLabel: r.objectCanonicalLabel,
    referenceRelation: r.referenceRelation,
    referenceNode: r.referenceNode,
    value: r.value,
    valueMax: r.valueMax,
    unit: r.unit,
    causal: r.causal,
    paperId: r.paperId,
    paragraphId: r.paragraphId,
    recordId: r.recordId,
    sentence: r.sentence,
    text,
    terms,
    quantities,
  };
}

/**
 * The stored form of the graph index of these tuples (what `storedGraphIndex` gives of the index they build) made
 * straight from pages of rows (`loadPage(after)`: the rows after id `after` in id order; an empty page ends), without
 * the index's maps or every row at once. A first start keeps it for its retrieval workers, which read it as a
 * restart's do: at ten times the shared corpus, building the whole index on the server's thread to store it raised
 * the server by 1 GB, most of which was not given back before the workers read theirs.
 */
export async function storedGraphFromPages(
  loadPage: (after: string | null) => Promise<RetrievalTupleRow[]>,
  embedder: TextEmbedder,
): Promise<StoredGraphIndex> {
  const t0 = performance.now();
  const slice = timeSlicer();
  const tuples: IndexedTuple[] = [];
  // The canonical entities in the order the tuples name them (as assembleGraph lists them), with their labels.
  const labels = new Map<string, string>();
  // One copy of each label, key, relation and sentence until the tuples are packed (each page's rows hold their own).
  const shared = new Map<string, string>();
  for (let after: string | null = null; ; ) {
    const rows: RetrievalTupleRow[] = internStrings(await loadPage(after), 1024, shared);
    if (!rows.length) break;
    for (const r of rows) {
      await slice();
      tuples.push(indexTuple(r));
      if (!labels.has(r.subjectCanonical)) labels.set(r.subjectCanonical, r.subjectCanonicalLabel);
      if (!labels.has(r.objectCanonical)) labels.set(r.objectCanonical, r.objectCanonicalLabel);
    }
    after = rows[rows.length - 1].id;
  }
  const names = [...labels.values()];
  const vectors = await embedder.embed(names);
  return packGraph(
    tuples,
    names.map((l) => plainTerms(l)),
    vectors,
    (performance.now() - t0) / 1000,
  );
}

/**
 * What a data folder keeps of a graph index (index-snapshot.ts): the tuples as indexed, packed column by column,
 * and the entities' label terms and vectors; the maps are assembled from them again as a build assembles them.
 */
export interface StoredGraphIndex {
  tuples: PackedRows;
  /**
   * `byTerm` as read back: postings[i] holds the ordinals ordinals[offsets[i] .. offsets[i + 1]) of the tuples holding
   * terms[i]. Kept rather than gathered again from every tuple's terms (400,000 at the shared corpus): that was a
   * sixth of a restart's graph index, made on the retrieval worker while the first question waited for it.
   */
  postings: { terms: string[]; offsets: Uint32Array; ordinals: Int32Array };
  entityTerms: PackedRows;
  /** The entities' vectors one after another, in the order of `entities`. */
  vectors: Float32Array;
  dimensions: number;
  buildSeconds: number;
}

export function storedGraphIndex(g: GraphIndex): StoredGraphIndex {
  return packGraph(
    [...g.tuples.values()],
    g.entities.map((e) => e.terms),
    g.entities.map((e) => e.vector),
    g.buildSeconds,
  );
}

/** Tuples as indexed and their canonical entities' label terms and vectors, in the stored form. */
function packGraph(tuples: IndexedTuple[], entityTerms: string[][], entityVectors: Float32Array[], buildSeconds: number): StoredGraphIndex {
  const dimensions = entityVectors[0]?.length ?? 0;
  const vectors = new Float32Array(entityVectors.length * dimensions);
  for (const [i, v] of entityVectors.entries()) vectors.set(v, i * dimensions);
  return {
    tuples: packRows(tuples),
    postings: termPostings(tuples),
    entityTerms: packRows(entityTerms.map((terms) => ({ terms }))),
    vectors,
    dimensions,
    buildSeconds,
  };
}

/** Each term's tuples by ordinal, ascending (the order of `tuples`), in the stored form of `byTerm`. */
function termPostings(tuples: readonly IndexedTuple[]): StoredGraphIndex['postings'] {
  const lists = new Map<string, number[]>();
  tuples.forEach((t, ordinal) => {
    for (const term of t.terms) append(lists, term, ordinal);
  });
  const terms = [...lists.keys()];
  const offsets = new Uint32Array(terms.length + 1);
  let total = 0;
  terms.forEach((term, i) => {
    total += lists.get(term)!.length;
    offsets[i + 1] = total;
  });
  const ordinals = new Int32Array(total);
  terms.forEach((term, i) => {
    ordinals.set(lists.get(term)!, offsets[i]);
  });
  return { terms, offsets, ordinals };
}

/** The graph index a stored one holds (equal to the one it was stored from; one copy of each distinct string). */
export function graphIndexFrom(s: StoredGraphIndex): GraphIndex {
  const { terms: postingTerms, offsets, ordinals } = s.postings;
  // Views into the one stored array, like the entities' vectors below.
  const byTerm = new Map(postingTerms.map((term, i) => [term, ordinals.subarray(offsets[i], offsets[i + 1])]));
  const graph = { ...assembleGraph(unpackRows<IndexedTuple>(s.tuples)), byTerm };
  const terms = unpackRows<{ terms: string[] }>(s.entityTerms).map((e) => e.terms);
  if (terms.length !== graph.entities.length || s.vectors.length !== graph.entities.length * s.dimensions)
    throw new Error('its entities do not match its tuples');
  // Views into the one stored array: an entity's vector is read, never changed.
  const vectors = graph.entities.map((_, i) => s.vectors.subarray(i * s.dimensions, (i + 1) * s.dimensions));
  return finishGraph(graph, terms, vectors, s.buildSeconds);
}

type AssembledGraph = Omit<GraphIndex, 'entities' | 'entityColumns' | 'entityByKey' | 'buildSeconds' | 'byTerm'> & {
  entities: Pick<CanonicalEntity, 'key' | 'label' | 'tupleIds' | 'tupleOrdinals'>[];
};

/** The maps over indexed tuples (but the terms'), and the canonical entities (without vectors) in the order tuples name them. */
function assembleGraph(indexed: IndexedTuple[]): AssembledGraph {
  const tuples = new Map<string, IndexedTuple>();
  const tupleIds: string[] = [];
  const entityTuples = new Map<string, { key: string; label: string; tupleIds: string[]; ordinals: number[] }>();
  const adjacency = new Map<string, [string, string][]>();
  const canonicalOf = new Map<string, string>();
  const causalOut = new Map<string, IndexedTuple[]>();
  const byPaper = new Map<string, number[]>();
  const byParagraph = new Map<string, number[]>();
  for (let ordinal = 0; ordinal < indexed.length; ordinal++) {
    const t = indexed[ordinal];
    tupleIds.push(t.id);
    tuples.set(t.id, t);
    if (t.paperId) append(byPaper, t.paperId, ordinal);
    if (t.paragraphId) append(byParagraph, t.paragraphId, ordinal);
    canonicalOf.set(t.subjectKey, t.subjectCanonical);
    canonicalOf.set(t.objectKey, t.objectCanonical);
    if (t.causal) append(causalOut, t.subjectCanonical, t);
    for (const [key, label] of [
      [t.subjectCanonical, t.subjectCanonicalLabel],
      [t.objectCanonical, t.objectCanonicalLabel],
    ]) {
      const e = entityTuples.get(key);
      if (e) {
        e.tupleIds.push(t.id);
        e.ordinals.push(ordinal);
      } else entityTuples.set(key, { key, label, tupleIds: [t.id], ordinals: [ordinal] });
    }
    append(adjacency, t.subjectCanonical, [t.objectCanonical, t.id]);
    append(adjacency, t.objectCanonical, [t.subjectCanonical, t.id]);
  }
  const entities = [...entityTuples.values()].map(({ key, label, tupleIds, ordinals }) => ({ key, label, tupleIds, tupleOrdinals: Int32Array.from(ordinals) }));
  let idsAscending = true;
  for (let i = 1; i < tupleIds.length && idsAscending; i++) idsAscending = tupleIds[i - 1] < tupleIds[i];
  return { tuples, tupleIds, idsAscending, entities, adjacency, canonicalOf, causalOut, byPaper, byParagraph };
}

/** The index with its entities' label terms and vectors, and the vectors by dimension (see `entityColumns`). */
function finishGraph(graph: AssembledGraph & Pick<GraphIndex, 'byTerm'>, terms: string[][], vectors: Float32Array[], buildSeconds: number): GraphIndex {
  const entities: CanonicalEntity[] = graph.entities.map((e, i) => ({
    key: e.key,
    label: e.label,
    terms: terms[i],
    vector: vectors[i],
    tupleIds: e.tupleIds,
    tupleOrdinals: e.tupleOrdinals,
  }));
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
  return { ...graph, entities, entityColumns, entityByKey: new Map(entities.map((e) => [e.key, e])), buildSeconds };
}
