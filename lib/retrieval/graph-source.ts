import { sparse } from '../embedding/embedder.ts';
import { append, type CanonicalEntity, type GraphIndex, type IndexedTuple } from './graph-index.ts';
import type { RetrievalIndex } from './index.ts';

/**
 * Where the graph pipelines find their candidate tuples. The ranking (graph-search.ts) is the same whichever
 * source answers; only these look-ups differ. Two implementations: the embedded one over the in-process graph
 * index (below), and Neo4j (graph-sources/neo4j.ts: full-text, vector and path queries), chosen by NEO4J_URI.
 */
export interface GraphCandidateSource {
  readonly kind: 'embedded' | 'neo4j';
  /** Tuples in the graph (string retrieval ignores terms held by more than a fifth of them). */
  tupleCount(): Promise<number>;
  /** For each term held by at most `maxTuples` tuples, the ids of those tuples (terms over the cap are left out). */
  termPostings(terms: string[], maxTuples: number): Promise<Map<string, string[]>>;
  /**
   * String retrieval's count: how many tuples hold each term held by at most `maxTuples` (terms over the cap are left
   * out), and every tuple holding at least `min` of those terms, with how many it holds.
   */
  termMatches(terms: string[], maxTuples: number, min: number): Promise<TermMatches>;
  /** The tuples of each canonical entity that exists (a merged entity's members' tuples included). */
  entityTuples(keys: string[]): Promise<Map<string, string[]>>;
  /** Canonical entities whose embedded label has cosine ≥ minCosine with a probe: the best cosine and their tuples. */
  similarEntities(probes: Float32Array[], minCosine: number): Promise<{ key: string; cosine: number; tupleIds: string[] }[]>;
  /** Tuple ids on simple paths of ≤ maxHops edges between two canonical entities, through no hub, at most `limit` paths. */
  pathTuples(from: string, to: string, maxHops: number, limit: number): Promise<string[]>;
  /** A paper's tuple ids. */
  paperTuples(paperId: string): Promise<string[]>;
  /** The ids of the tuples read from these paragraphs. */
  paragraphTuples(paragraphIds: string[]): Promise<string[]>;
  /** The tuples with these ids, as retrieval reads them (ids that do not exist are left out). */
  tuples(ids: string[]): Promise<Map<string, IndexedTuple>>;
  /** The look-ups by tuple ordinal, where the source numbers its tuples itself (the embedded one); see `tupleOrdinals`. */
  readonly ordinals?: TupleOrdinals;
}

/**
 * The candidate look-ups of string, canonical and title retrieval and of the dense entry, by tuple ordinal: the
 * graph pipelines score candidates in typed arrays indexed by ordinal. A question naming TiO2, CO2 and water has
 * some 48,000 candidates at ten times the shared corpus, and on a retrieval worker's heap a write to a map keyed by
 * tuple id cost 0.6–0.9 µs, against 0.03 µs to a typed array: a third of such a question's time. Each list holds an
 * ordinal once.
 */
export interface TupleOrdinals {
  /** Every ordinal given so far is below this. */
  size(): number;
  idOf(ordinal: number): string;
  /** Whether ordinals ascend as their ids do (by `<`): then ties by id are broken by ordinal. */
  readonly inIdOrder: boolean;
  /** `termMatches`: the tuples holding at least `min` of the terms, and how many each holds (parallel lists). */
  termMatches(
    terms: string[],
    maxTuples: number,
    min: number,
  ): Promise<{ postingSizes: Map<string, number>; tuples: ArrayLike<number>; counts: ArrayLike<number> }>;
  entityTuples(keys: string[]): Promise<Map<string, ArrayLike<number>>>;
  similarEntities(probes: Float32Array[], minCosine: number): Promise<{ key: string; cosine: number; tuples: ArrayLike<number> }[]>;
  paperTuples(paperId: string): Promise<ArrayLike<number>>;
  paragraphTuples(paragraphIds: string[]): Promise<ArrayLike<number>>;
}

/**
 * A source's look-ups by ordinal: its own, or its look-ups by id numbered as they come (Neo4j's, which lists ids).
 * The numbering lives as long as the object: take one per question.
 */
export function tupleOrdinals(source: GraphCandidateSource): TupleOrdinals {
  if (source.ordinals) return source.ordinals;
  const ordinalOf = new Map<string, number>();
  const ids: string[] = [];
  const intern = (id: string) => {
    let o = ordinalOf.get(id);
    if (o === undefined) {
      o = ids.length;
      ids.push(id);
      ordinalOf.set(id, o);
    }
    return o;
  };
  const list = (tupleIds: string[]) => Int32Array.from(tupleIds, intern);
  return {
    size: () => ids.length,
    idOf: (o) => ids[o],
    inIdOrder: false,
    async termMatches(terms, maxTuples, min) {
      const { postingSizes, matches } = await source.termMatches(terms, maxTuples, min);
      const tuples: number[] = [];
      const counts: number[] = [];
      matches.forEach((n, id) => {
        tuples.push(intern(id));
        counts.push(n);
      });
      return { postingSizes, tuples, counts };
    },
    entityTuples: async (keys) => new Map([...(await source.entityTuples(keys))].map(([key, tupleIds]) => [key, list(tupleIds)])),
    similarEntities: async (probes, minCosine) =>
      (await source.similarEntities(probes, minCosine)).map((e) => ({ key: e.key, cosine: e.cosine, tuples: list(e.tupleIds) })),
    paperTuples: async (paperId) => list(await source.paperTuples(paperId)),
    paragraphTuples: async (paragraphIds) => list(await source.paragraphTuples(paragraphIds)),
  };
}

export interface TermMatches {
  /** Term → the number of tuples holding it, for the terms within the cap. */
  postingSizes: Map<string, number>;
  /** Tuple id → how many of the terms it holds, for the tuples holding at least `min`. */
  matches: Map<string, number>;
}

/** `termMatches` from the postings of each term (a source that lists them as ids: Neo4j's). */
export function countTermMatches(postings: Map<string, string[]>, min: number): TermMatches {
  const counts = new Map<string, number>();
  for (const ids of postings.values()) for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const matches = new Map<string, number>();
  // Read with forEach: tens of thousands of ids a question, and spreading the map made an array for each.
  counts.forEach((n, id) => {
    if (n >= min) matches.set(id, n);
  });
  return { postingSizes: new Map([...postings].map(([term, ids]) => [term, ids.length])), matches };
}

/**
 * A source for a retrieval index: Neo4j's answers are turned into tuples the same way, and its entity vectors are
 * (re)written for the index's embedder on first use, so they always match the question's probes.
 */
export type GraphSourceFactory = (index: RetrievalIndex) => Promise<GraphCandidateSource>;

/** Entities with more edges than this are hubs ("power density", "solvent"): paths through them explain nothing. */
export const HUB_DEGREE = 200;

/** The embedded source: the graph index built in process from the relational database. */
export function embeddedGraphSource(graph: GraphIndex): GraphCandidateSource {
  const idsOf = (ordinals: ArrayLike<number>) => Array.from(ordinals, (o) => graph.tupleIds[o]);
  /** The canonical entities of these keys that exist, in the keys' order. */
  const entitiesOf = (keys: string[]) => keys.flatMap((k) => graph.entityByKey.get(k) ?? []);
  const ordinals: TupleOrdinals = {
    size: () => graph.tupleIds.length,
    idOf: (o) => graph.tupleIds[o],
    inIdOrder: graph.idsAscending,
    async termMatches(terms, maxTuples, min) {
      const postingSizes = new Map<string, number>();
      // Counted by ordinal in one typed array.
      const counts = new Uint16Array(graph.tupleIds.length);
      const touched: number[] = [];
      for (const t of new Set(terms)) {
        const ordinals = graph.byTerm.get(t);
        if (!ordinals || ordinals.length > maxTuples) continue;
        postingSizes.set(t, ordinals.length);
        for (let i = 0; i < ordinals.length; i++) if (counts[ordinals[i]]++ === 0) touched.push(ordinals[i]);
      }
      const tuples: number[] = [];
      const held: number[] = [];
      for (const o of touched)
        if (counts[o] >= min) {
          tuples.push(o);
          held.push(counts[o]);
        }
      return { postingSizes, tuples, counts: held };
    },
    entityTuples: async (keys) => new Map(entitiesOf(keys).map((e) => [e.key, e.tupleOrdinals])),
    similarEntities: async (probes, minCosine) =>
      similarByCosine(graph, probes, minCosine).map(({ entity, cosine }) => ({ key: entity.key, cosine, tuples: entity.tupleOrdinals })),
    paperTuples: async (paperId) => graph.byPaper.get(paperId) ?? [],
    paragraphTuples: async (paragraphIds) => paragraphIds.flatMap((id) => graph.byParagraph.get(id) ?? []),
  };
  return {
    kind: 'embedded',
    ordinals,
    tupleCount: async () => graph.tuples.size,
    async termPostings(terms, maxTuples) {
      const out = new Map<string, string[]>();
      for (const t of terms) {
        const posting = graph.byTerm.get(t);
        if (posting && posting.length <= maxTuples) out.set(t, idsOf(posting));
      }
      return out;
    },
    async termMatches(terms, maxTuples, min) {
      const { postingSizes, tuples, counts } = await ordinals.termMatches(terms, maxTuples, min);
      const matches = new Map<string, number>();
      for (let i = 0; i < tuples.length; i++) matches.set(graph.tupleIds[tuples[i]], counts[i]);
      return { postingSizes, matches };
    },
    entityTuples: async (keys) => new Map(entitiesOf(keys).map((e) => [e.key, e.tupleIds])),
    similarEntities: async (probes, minCosine) =>
      similarByCosine(graph, probes, minCosine).map(({ entity, cosine }) => ({ key: entity.key, cosine, tupleIds: entity.tupleIds })),
    pathTuples: async (from, to, maxHops, limit) => shortPaths(graph, from, to, maxHops, limit),
    paperTuples: async (paperId) => idsOf(await ordinals.paperTuples(paperId)),
    paragraphTuples: async (paragraphIds) => idsOf(await ordinals.paragraphTuples(paragraphIds)),
    async tuples(ids) {
      const out = new Map<string, IndexedTuple>();
      for (const id of ids) {
        const t = graph.tuples.get(id);
        if (t) out.set(id, t);
      }
      return out;
    },
  };
}

/** The canonical entities whose label has cosine ≥ minCosine with a probe, each with its best, in entity order. */
function similarByCosine(graph: GraphIndex, probes: Float32Array[], minCosine: number): { entity: CanonicalEntity; cosine: number }[] {
  const n = graph.entities.length;
  const best = new Float64Array(n);
  const dot = new Float64Array(n);
  for (const p of probes.map(sparse)) {
    // The same non-zero products summed in the same order as sparseDot, so the cosines are bit for bit the same.
    dot.fill(0);
    for (let j = 0; j < p.idx.length; j++) {
      const w = p.val[j];
      // No column when the graph has no entities (nor their dimensions) yet.
      const column = graph.entityColumns[p.idx[j]];
      if (!column) continue;
      for (let t = 0; t < column.entities.length; t++) dot[column.entities[t]] += w * column.values[t];
    }
    for (let i = 0; i < n; i++) if (dot[i] > best[i]) best[i] = dot[i];
  }
  const out: { entity: CanonicalEntity; cosine: number }[] = [];
  for (let i = 0; i < n; i++) if (best[i] >= minCosine) out.push({ entity: graph.entities[i], cosine: best[i] });
  return out;
}

/** How many partial paths a hop keeps: a hub's neighbours are thousands, and each would be walked further. */
export const MAX_FRONTIER = 2000;

/** Tuple ids on simple paths of ≤ maxHops edges between two canonical entities (breadth first, bounded). */
export function shortPaths(graph: GraphIndex, from: string, to: string, maxHops: number, limit: number, maxFrontier = MAX_FRONTIER): string[] {
  const out = new Set<string>();
  // A partial path is its last step and a link to the step before: no arrays copied per step (a question naming
  // several materials walks thousands of them, and copying was most of the multi-hop step's time).
  let frontier: PathStep[] = [{ node: from, edge: null, prev: null }];
  let found = 0;
  let targetEdges: Map<string, string[]> | null = null;
  for (let depth = 0; depth < maxHops && frontier.length && found < limit; depth++) {
    const next: PathStep[] = [];
    const last = depth === maxHops - 1;
    for (const f of frontier) {
      // When nothing more can join the next hop (the last hop, or the next hop full), a frontier node's only use is
      // its edges to the target: read from the target's own edges (a frontier of 2,000 nodes of up to 200 edges each
      // was most of the step's time at ten times the shared corpus). Edges are listed in tuple order at both ends,
      // so the paths are found in the same order as by walking.
      if (last || next.length >= maxFrontier) {
        targetEdges ??= edgesByNeighbour(graph, to);
        for (const id of targetEdges.get(f.node) ?? []) {
          for (const e of edgesTo(f)) out.add(e);
          out.add(id);
          if (++found >= limit) return [...out];
        }
        continue;
      }
      for (const [n, id] of graph.adjacency.get(f.node) ?? []) {
        if (n === to) {
          for (const e of edgesTo(f)) out.add(e);
          out.add(id);
          if (++found >= limit) return [...out];
          continue;
        }
        // Hubs connect everything.
        if (next.length >= maxFrontier || passesThrough(f, n) || (graph.adjacency.get(n)?.length ?? 0) > HUB_DEGREE) continue;
        next.push({ node: n, edge: id, prev: f });
      }
    }
    frontier = next;
  }
  return [...out];
}

/**
 * A node's tuples by the neighbour they link it to. A hub's are kept (a few dozen hubs at a time, per graph): the
 * questions' materials are the corpus's hubs again and again (TiO2, CO2, water), and at ten times the shared corpus
 * listing one took longer than the rest of its paths.
 */
function edgesByNeighbour(graph: GraphIndex, node: string): Map<string, string[]> {
  const edges = graph.adjacency.get(node) ?? [];
  let kept: Map<string, Map<string, string[]>> | undefined;
  if (edges.length > HUB_DEGREE) {
    kept = hubEdges.get(graph);
    if (!kept) hubEdges.set(graph, (kept = new Map()));
    const known = kept.get(node);
    if (known) return known;
    if (kept.size >= KEPT_HUBS) kept.clear();
  }
  const out = new Map<string, string[]>();
  for (const [n, id] of edges) append(out, n, id);
  kept?.set(node, out);
  return out;
}
const KEPT_HUBS = 48;
const hubEdges = new WeakMap<GraphIndex, Map<string, Map<string, string[]>>>();

interface PathStep {
  node: string;
  /** The tuple walked to reach `node` (none for the start). */
  edge: string | null;
  prev: PathStep | null;
}

const passesThrough = (s: PathStep, node: string) => {
  for (let x: PathStep | null = s; x; x = x.prev) if (x.node === node) return true;
  return false;
};

/** The tuples of a partial path, from its start. */
const edgesTo = (s: PathStep) => {
  const edges: string[] = [];
  for (let x: PathStep | null = s; x?.edge; x = x.prev) edges.push(x.edge);
  return edges.reverse();
};
