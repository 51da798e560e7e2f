import { createHash, randomUUID } from 'node:crypto';
import type { EagerResult } from 'neo4j-driver';
import type { Database } from '../../db/database.ts';
import { type RetrievalTupleRow, tuplesForRetrieval } from '../../db/graph-views.ts';
import { type Neo4jQueryRunner, neo4j } from '../../graph/stores/neo4j.ts';
import { checkHops } from '../../graph/store.ts';
import type { TextEmbedder } from '../../embedding/embedder.ts';
import { indexTuple, type IndexedTuple } from '../graph-index.ts';
import { countTermMatches, type GraphCandidateSource, type GraphSourceFactory, HUB_DEGREE } from '../graph-source.ts';
import { cachedGraphSource } from './cached.ts';

/**
 * Graph retrieval read from Neo4j. `graph:sync` pushes the graph (lib/graph/sync.ts) and then this module's
 * retrieval layer: on every tuple its retrieval terms (`r.terms`, the same terms the embedded index keys on) under
 * a full-text index with Lucene's whitespace analyzer, so a term matches exactly as a map look-up would; on every
 * entity its canonical entity (`canonical`, `canonicalLabel`) and that canonical entity's degree (for skipping
 * hubs on paths). The entity vectors depend on the embedder the retrieval index uses, which a sync does not know,
 * so they are written on first use for that embedder (and again when the canonical entities or the embedder
 * change) under a Neo4j vector index. Every query is parameterised; each look-up is one round trip.
 */

const TERMS_INDEX = 'assay_tuple_terms';
const VECTOR_INDEX = 'assay_entity_vector';
const META = 'AssayRetrievalLayer';
const BATCH = 2000;
const VECTOR_BATCH = 500;
/** Nearest entities asked of the vector index per probe; those under the cosine threshold are dropped after. */
export const VECTOR_NEIGHBOURS = 200;

type Run = (query: string, params?: Record<string, unknown>, write?: boolean) => Promise<EagerResult>;

function runner(driver: Neo4jQueryRunner, database: string | undefined): Run {
  return (query, params = {}, write = false) => driver.executeQuery(query, params, { database, routing: write ? neo4j().routing.WRITE : neo4j().routing.READ });
}

const num = (v: unknown) => (v === null || v === undefined ? null : neo4j().isInt(v) ? (v as { toNumber(): number }).toNumber() : Number(v));

/**
 * A term as one whitespace token: value keys hold spaces ("v:time:12 h"), and Lucene's whitespace tokenizer would
 * split them into tokens a one-word query could match ("h"). A no-break space is not whitespace to Java.
 */
const token = (term: string) => term.replace(/\s/g, '\u00a0');
/** A Lucene query for one exact term: quoted, so ':' or '-' in a key ("p:power-density") is not syntax. */
const luceneTerm = (term: string) => `"${token(term).replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * Writes the retrieval layer for the graph Neo4j holds (after `syncGraphToStore`). Idempotent: re-running it
 * rewrites the same values. Returns what it wrote.
 */
export async function writeNeo4jRetrievalLayer(
  driver: Neo4jQueryRunner,
  db: Database,
  opts: { database?: string } = {},
): Promise<{ tuples: number; canonicalEntities: number; seconds: number }> {
  const t0 = performance.now();
  const run = runner(driver, opts.database);
  await run('CREATE INDEX assay_entity_canonical IF NOT EXISTS FOR (e:Entity) ON (e.canonical)', {}, true);
  await run('CREATE INDEX assay_tuple_paragraph IF NOT EXISTS FOR ()-[r:TUPLE]-() ON (r.paragraphId)', {}, true);
  await run(
    `CREATE FULLTEXT INDEX ${TERMS_INDEX} IF NOT EXISTS FOR ()-[r:TUPLE]-() ON EACH [r.terms] OPTIONS { indexConfig: { \`fulltext.analyzer\`: 'whitespace' } }`,
    {},
    true,
  );
  const rows = await tuplesForRetrieval(db);
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH).map((r) => ({ id: r.id, terms: [...indexTuple(r).terms].map(token).join(' ') }));
    await run('UNWIND $rows AS row MATCH ()-[r:TUPLE {id: row.id}]->() SET r.terms = row.terms', { rows: batch }, true);
  }
  // Canonical entities and their degree, as the embedded index counts them (an edge per tuple end).
  const canonical = new Map<string, { canonical: string; label: string }>();
  const degree = new Map<string, number>();
  for (const r of rows) {
    canonical.set(r.subjectKey, { canonical: r.subjectCanonical, label: r.subjectCanonicalLabel });
    canonical.set(r.objectKey, { canonical: r.objectCanonical, label: r.objectCanonicalLabel });
    degree.set(r.subjectCanonical, (degree.get(r.subjectCanonical) ?? 0) + 1);
    degree.set(r.objectCanonical, (degree.get(r.objectCanonical) ?? 0) + 1);
  }
  // Entities no tuple touches are their own canonical entity, with no edges.
  await run('MATCH (e:Entity) SET e.canonical = e.key, e.canonicalLabel = e.label, e.degree = 0', {}, true);
  const entities = [...canonical].map(([key, c]) => ({ key, canonical: c.canonical, label: c.label, degree: degree.get(c.canonical) ?? 0 }));
  for (let i = 0; i < entities.length; i += BATCH)
    await run(
      'UNWIND $rows AS row MATCH (e:Entity {key: row.key}) SET e.canonical = row.canonical, e.canonicalLabel = row.label, e.degree = row.degree',
      { rows: entities.slice(i, i + BATCH).map((e) => ({ ...e, degree: neo4j().int(e.degree) })) },
      true,
    );
  // What the entity vectors depend on: which canonical entities there are and their labels.
  const canonicalLabels = [...new Map([...canonical.values()].map((c) => [c.canonical, c.label]))].sort(([a], [b]) => (a < b ? -1 : 1));
  const entityStamp = createHash('sha1').update(JSON.stringify(canonicalLabels)).digest('hex');
  // `version` is new on every write: a process's memory of Neo4j's answers (cached.ts) is emptied when it changes.
  await run(
    `MERGE (m:${META} {id: 'graph'}) SET m.entityStamp = $entityStamp, m.tuples = $tuples, m.version = $version`,
    {
      entityStamp,
      tuples: neo4j().int(rows.length),
      version: randomUUID(),
    },
    true,
  );
  await run('CALL db.awaitIndexes(600)', {}, true);
  return { tuples: rows.length, canonicalEntities: canonicalLabels.length, seconds: (performance.now() - t0) / 1000 };
}

/** Neo4j's cosine score is (1 + cos) / 2. */
const scoreOfCosine = (cos: number) => (1 + cos) / 2;
const cosineOfScore = (score: number) => 2 * score - 1;

/**
 * Writes the canonical entities' vectors for this embedder unless Neo4j already holds them for the same embedder
 * and the same canonical entities. The vector index is (re)created with the embedder's dimensions and without
 * quantization: Neo4j quantizes by default, which moved cosines by up to 0.15 here (an identical label scored
 * 0.90), enough to cross the 0.7 threshold either way; unquantized, its scores equal the embedded ones.
 */
async function ensureEntityVectors(run: Run, embedder: TextEmbedder): Promise<{ written: number }> {
  const meta = await run(`MATCH (m:${META} {id: 'graph'}) RETURN m.entityStamp AS entityStamp, m.vectorsEmbedder AS embedder, m.vectorsStamp AS vectorsStamp`);
  const m = meta.records[0];
  if (!m) throw new Error('Neo4j holds no retrieval layer for the graph: run `npm run graph:sync` (it pushes the graph and indexes it for retrieval)');
  if (m.get('embedder') === embedder.id && m.get('vectorsStamp') === m.get('entityStamp')) return { written: 0 };
  const indexes = await run('SHOW INDEXES YIELD name, options WHERE name = $name RETURN options', { name: VECTOR_INDEX });
  const existing = (indexes.records[0]?.get('options') as { indexConfig: Record<string, unknown> } | undefined)?.indexConfig;
  if (existing && (num(existing['vector.dimensions']) !== embedder.dimensions || existing['vector.quantization.enabled'] !== false))
    await run(`DROP INDEX ${VECTOR_INDEX} IF EXISTS`, {}, true);
  if (!Number.isInteger(embedder.dimensions) || embedder.dimensions < 1 || embedder.dimensions > 4096)
    throw new RangeError(`embedding dimensions ${embedder.dimensions} are not supported by a Neo4j vector index`);
  await run(
    `CREATE VECTOR INDEX ${VECTOR_INDEX} IF NOT EXISTS FOR (e:Entity) ON (e.embedding) OPTIONS { indexConfig: { \`vector.dimensions\`: ${embedder.dimensions}, \`vector.similarity_function\`: 'cosine', \`vector.quantization.enabled\`: false } }`,
    {},
    true,
  );
  await run('MATCH (e:Entity) WHERE e.embedding IS NOT NULL REMOVE e.embedding', {}, true);
  const { records } = await run('MATCH (e:Entity) WHERE e.canonical = e.key AND e.degree > 0 RETURN e.key AS key, e.canonicalLabel AS label ORDER BY e.key');
  const entities = records.map((r) => ({ key: r.get('key') as string, label: r.get('label') as string }));
  let written = 0;
  for (let i = 0; i < entities.length; i += VECTOR_BATCH) {
    const batch = entities.slice(i, i + VECTOR_BATCH);
    const vectors = await embedder.embed(batch.map((e) => e.label));
    // A label with no features embeds to zeros, which a cosine index cannot hold (and which matches nothing).
    const rows = batch.map((e, j) => ({ key: e.key, vector: Array.from(vectors[j]) })).filter((r) => r.vector.some((x) => x !== 0));
    await run("UNWIND $rows AS row MATCH (e:Entity {key: row.key}) CALL db.create.setNodeVectorProperty(e, 'embedding', row.vector)", { rows }, true);
    written += rows.length;
  }
  await run('CALL db.awaitIndexes(600)', {}, true);
  await run(`MATCH (m:${META} {id: 'graph'}) SET m.vectorsEmbedder = $embedder, m.vectorsStamp = m.entityStamp`, { embedder: embedder.id }, true);
  return { written };
}

function tupleOf(record: { get(key: string): unknown }): IndexedTuple {
  const p = record.get('r') as Record<string, unknown>;
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const row: RetrievalTupleRow = {
    id: String(p.id),
    subjectKey: record.get('subjectKey') as string,
    subjectLabel: record.get('subjectLabel') as string,
    subjectCanonical: record.get('subjectCanonical') as string,
    subjectCanonicalLabel: record.get('subjectCanonicalLabel') as string,
    relation: String(p.relation),
    objectKey: record.get('objectKey') as string,
    objectLabel: record.get('objectLabel') as string,
    objectCanonical: record.get('objectCanonical') as string,
    objectCanonicalLabel: record.get('objectCanonicalLabel') as string,
    referenceRelation: text(p.referenceRelation),
    referenceNode: text(p.referenceNode),
    value: num(p.value),
    valueMax: num(p.valueMax),
    unit: text(p.unit),
    causal: Boolean(p.causal),
    paperId: text(p.paperId),
    paragraphId: text(p.paragraphId),
    recordId: text(p.recordId),
    sentence: text(p.sentence),
  };
  return indexTuple(row);
}

/** The candidate source over a Neo4j that holds the retrieval layer and this embedder's entity vectors. */
export function neo4jGraphSource(driver: Neo4jQueryRunner, opts: { database?: string } = {}): GraphCandidateSource {
  const run = runner(driver, opts.database);
  const termPostings = async (terms: string[], maxTuples: number): Promise<Map<string, string[]>> => {
    if (terms.length === 0) return new Map();
    const { records } = await run(
      `UNWIND $queries AS q
       CALL (q) { CALL db.index.fulltext.queryRelationships('${TERMS_INDEX}', q.lucene) YIELD relationship RETURN collect(relationship.id) AS ids }
       WITH q, ids WHERE size(ids) > 0 AND size(ids) <= $max
       RETURN q.term AS term, ids`,
      {
        queries: terms.map((term) => ({ term, lucene: luceneTerm(term) })),
        max: Number.isFinite(maxTuples) ? neo4j().int(Math.floor(maxTuples)) : neo4j().int(2 ** 31),
      },
    );
    return new Map(records.map((r) => [r.get('term') as string, r.get('ids') as string[]]));
  };
  return {
    kind: 'neo4j',
    // Asked each time (Neo4j answers it from its count store): a count kept for the source's life outlived a sync.
    // The process's memory (cached.ts) keeps it per graph version.
    async tupleCount() {
      return num((await run('MATCH ()-[r:TUPLE]->() RETURN count(r) AS n')).records[0].get('n')) ?? 0;
    },
    termPostings,
    async termMatches(terms, maxTuples, min) {
      return countTermMatches(await termPostings(terms, maxTuples), min);
    },
    async entityTuples(keys) {
      if (keys.length === 0) return new Map();
      const { records } = await run(
        'UNWIND $keys AS key MATCH (e:Entity {canonical: key})-[r:TUPLE]-() WITH key, collect(DISTINCT r.id) AS ids RETURN key, ids',
        { keys: [...new Set(keys)] },
      );
      return new Map(records.map((r) => [r.get('key') as string, r.get('ids') as string[]]));
    },
    async similarEntities(probes, minCosine) {
      const usable = probes.filter((p) => p.some((x) => x !== 0)).map((p) => Array.from(p));
      if (usable.length === 0) return [];
      const { records } = await run(
        `UNWIND $probes AS probe
         CALL db.index.vector.queryNodes('${VECTOR_INDEX}', $neighbours, probe) YIELD node, score
         WITH node, max(score) AS score WHERE score >= $minScore
         MATCH (m:Entity {canonical: node.key})-[r:TUPLE]-()
         RETURN node.key AS key, score, collect(DISTINCT r.id) AS ids`,
        { probes: usable, neighbours: neo4j().int(VECTOR_NEIGHBOURS), minScore: scoreOfCosine(minCosine) },
      );
      return records.map((r) => ({ key: r.get('key') as string, cosine: cosineOfScore(r.get('score') as number), tupleIds: r.get('ids') as string[] }));
    },
    async pathTuples(from, to, maxHops, limit) {
      checkHops(maxHops);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RangeError(`limit must be an integer from 1 to 1000, got ${limit}`);
      // The shortest paths first, each through entities of at most HUB_DEGREE edges that are neither end; the hop
      // bound and the path count cannot be parameters, so the checked integers are written in.
      const { records } = await run(
        `MATCH (a:Entity {canonical: $from}) MATCH (b:Entity {canonical: $to})
         MATCH p = SHORTEST ${limit} (a)(()-[:TUPLE]-(n:Entity) WHERE n.canonical = $to OR (n.degree <= $hub AND n.canonical <> $from)){1,${maxHops}}(b)
         WITH p ORDER BY length(p) LIMIT $limit
         UNWIND relationships(p) AS r
         RETURN collect(DISTINCT r.id) AS ids`,
        { from, to, hub: neo4j().int(HUB_DEGREE), limit: neo4j().int(limit) },
      );
      return (records[0]?.get('ids') as string[] | undefined) ?? [];
    },
    async paperTuples(paperId) {
      const { records } = await run('MATCH ()-[r:TUPLE]->() WHERE r.paperId = $paperId RETURN r.id AS id ORDER BY id', { paperId });
      return records.map((r) => r.get('id') as string);
    },
    async paragraphTuples(paragraphIds) {
      if (paragraphIds.length === 0) return [];
      const { records } = await run('MATCH ()-[r:TUPLE]->() WHERE r.paragraphId IN $paragraphIds RETURN r.id AS id ORDER BY id', { paragraphIds });
      return records.map((r) => r.get('id') as string);
    },
    async tuples(ids) {
      if (ids.length === 0) return new Map();
      const { records } = await run(
        `UNWIND $ids AS id MATCH (s:Entity)-[r:TUPLE {id: id}]->(o:Entity)
         RETURN r {.id, .relation, .referenceRelation, .referenceNode, .value, .valueMax, .unit, .causal, .paperId, .paragraphId, .recordId, .sentence} AS r, s.key AS subjectKey, s.label AS subjectLabel, s.canonical AS subjectCanonical, s.canonicalLabel AS subjectCanonicalLabel,
                o.key AS objectKey, o.label AS objectLabel, o.canonical AS objectCanonical, o.canonicalLabel AS objectCanonicalLabel`,
        { ids },
      );
      return new Map(records.map((r) => tupleOf(r)).map((t) => [t.id, t]));
    },
  };
}

/**
 * The version of what Neo4j answers: the stamp of the last `graph:sync` and the embedder its entity vectors are for
 * (a process writing vectors for another embedder replaces them).
 */
export async function neo4jGraphVersion(driver: Neo4jQueryRunner, opts: { database?: string } = {}): Promise<string> {
  const { records } = await runner(
    driver,
    opts.database,
  )(
    `MATCH (m:${META} {id: 'graph'}) RETURN m.version AS version, m.entityStamp AS entityStamp, m.tuples AS tuples, m.vectorsEmbedder AS embedder, m.vectorsStamp AS vectorsStamp`,
  );
  const m = records[0];
  if (!m) return 'none';
  // A layer written before versions were: its stamp and size stand for one.
  const written = m.get('version') ?? `${m.get('entityStamp')}:${num(m.get('tuples'))}`;
  return `${written}|${m.get('embedder')}|${m.get('vectorsStamp')}`;
}

/**
 * Neo4j-backed sources for the retrieval service: one per embedder, each ready once the entity vectors for that
 * embedder are in Neo4j (written on first use when they are not), each remembering Neo4j's answers up to
 * `cacheBytes` (cached.ts; 0: none).
 */
export function neo4jGraphSources(driver: Neo4jQueryRunner, opts: { database?: string; cacheBytes?: number } = {}): GraphSourceFactory {
  const ready = new Map<string, Promise<GraphCandidateSource>>();
  const cacheBytes = opts.cacheBytes ?? 0;
  return (index) => {
    const id = index.nameEmbedder.id;
    let source = ready.get(id);
    if (!source) {
      source = ensureEntityVectors(runner(driver, opts.database), index.nameEmbedder).then(() => {
        const direct = neo4jGraphSource(driver, opts);
        return cacheBytes > 0 ? cachedGraphSource(direct, { maxBytes: cacheBytes, version: () => neo4jGraphVersion(driver, opts) }) : direct;
      });
      ready.set(id, source);
      source.catch(() => ready.delete(id)); // a failed preparation is retried by the next question
    }
    return source;
  };
}
