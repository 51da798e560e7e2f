import { createHash } from 'node:crypto';
import type { Database } from './database.ts';

/** Owns all queries on GraphEntity and GraphTuple (the relational side of the knowledge graph). */

export interface StoredEntity {
  key: string;
  label: string;
  kind: string;
  formula: string | null;
  /** surface → times seen in this batch */
  surfaces: Record<string, number>;
}

export interface StoredTuple {
  id: string;
  subjectKey: string;
  relation: string;
  objectKey: string;
  referenceRelation: string | null;
  referenceNode: string | null;
  value: number | null;
  valueMax: number | null;
  unit: string | null;
  causal: boolean;
  paperId: string | null;
  paragraphId: string | null;
  recordId: string | null;
  start: number | null;
  end: number | null;
  sentence: string | null;
  stamp: string;
}

/** Entity ids derive from their key, so both stores and every batch agree without a lookup. */
export const entityId = (key: string) => `e${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;

export async function upsertEntities(db: Database, entities: StoredEntity[]) {
  for (let i = 0; i < entities.length; i += 2000) {
    const batch = entities.slice(i, i + 2000);
    const params: unknown[] = [];
    const rows = batch.map((e, j) => {
      params.push(entityId(e.key), e.key, e.label, e.kind, e.formula, JSON.stringify(e.surfaces));
      const b = j * 6;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}::jsonb, now())`;
    });
    // Surfaces accumulate: a spelling seen again keeps its place, a new one is added. The label is the first
    // spelling met, unless the entity's spellings were reset (resetEntitySpellings): then it is this batch's. A
    // build ends by labelling every entity by its commonest spelling (labelByCommonestSpelling).
    await db.bulkExecute(
      `INSERT INTO "GraphEntity" ("id", "key", "label", "kind", "formula", "surfaces", "updatedAt") VALUES ${rows.join(', ')}
       ON CONFLICT ("key") DO UPDATE SET "surfaces" = "GraphEntity"."surfaces" || EXCLUDED."surfaces", "updatedAt" = now(),
         "label" = CASE WHEN EXCLUDED."kind" = 'property' OR "GraphEntity"."surfaces" = '{}'::jsonb THEN EXCLUDED."label" ELSE "GraphEntity"."label" END`,
      params,
    );
  }
}

/**
 * The tuple columns: SQL type and how a stored tuple gives the value (entity keys become entity ids). A batch is
 * sent as one array per column.
 */
const TUPLE_COLUMNS: [string, string, (t: StoredTuple) => unknown][] = [
  ['id', 'text', (t) => t.id],
  ['subjectId', 'text', (t) => entityId(t.subjectKey)],
  ['relation', 'text', (t) => t.relation],
  ['objectId', 'text', (t) => entityId(t.objectKey)],
  ['referenceRelation', 'text', (t) => t.referenceRelation],
  ['referenceNode', 'text', (t) => t.referenceNode],
  ['value', 'float8', (t) => t.value],
  ['valueMax', 'float8', (t) => t.valueMax],
  ['unit', 'text', (t) => t.unit],
  ['causal', 'bool', (t) => t.causal],
  ['paperId', 'text', (t) => t.paperId],
  ['paragraphId', 'text', (t) => t.paragraphId],
  ['recordId', 'text', (t) => t.recordId],
  ['start', 'int4', (t) => t.start],
  ['end', 'int4', (t) => t.end],
  ['sentence', 'text', (t) => t.sentence],
  ['stamp', 'text', (t) => t.stamp],
];

export async function insertTuples(db: Database, tuples: StoredTuple[]) {
  // One array per column unnested into rows: 17 parameters per batch instead of 17 per row, which PostgreSQL
  // (and PGlite most of all) binds and plans much faster than a VALUES list of thousands of placeholders.
  for (let i = 0; i < tuples.length; i += 5000) {
    const batch = tuples.slice(i, i + 5000);
    await db.bulkExecute(
      `INSERT INTO "GraphTuple" (${TUPLE_COLUMNS.map(([c]) => `"${c}"`).join(', ')})
       SELECT * FROM unnest(${TUPLE_COLUMNS.map(([, type], k) => `$${k + 1}::${type}[]`).join(', ')})
       ON CONFLICT ("id") DO NOTHING`,
      TUPLE_COLUMNS.map(([, , value]) => batch.map(value)),
    );
  }
}

/** The stamp each paper's tuples were extracted under (papers without tuples are absent). */
export async function paperStamps(db: Database): Promise<Map<string, string>> {
  const rows = await db.prisma.$queryRawUnsafe<{ paperId: string; stamp: string }[]>(
    `SELECT DISTINCT "paperId", "stamp" FROM "GraphTuple" WHERE "paperId" IS NOT NULL`,
  );
  return new Map(rows.map((r) => [r.paperId, r.stamp]));
}

export async function deletePaperTuples(db: Database, paperIds: string[]) {
  if (paperIds.length) await db.bulkExecute(`DELETE FROM "GraphTuple" WHERE "paperId" = ANY($1::text[])`, [paperIds]);
}

/**
 * Forgets every entity's spellings (and so its label), keeping the entity rows and the merge decisions on them: a
 * build that re-extracts every paper then labels each entity as a build from nothing would, instead of by a
 * spelling an older extractor met first.
 */
export async function resetEntitySpellings(db: Database) {
  await db.bulkExecute(`UPDATE "GraphEntity" SET "surfaces" = '{}'::jsonb`, []);
}

/**
 * Labels the given entities (but properties, which carry their lexicon name) by their most frequent spelling, ties
 * going to the first in code-point order: the label then depends on the corpus, not on the order papers happened
 * to be stored in (a database's paper ids), so two databases of the same corpus label alike.
 */
export async function labelByCommonestSpelling(db: Database, keys: string[]) {
  if (keys.length === 0) return;
  await db.bulkExecute(
    `UPDATE "GraphEntity" e SET "label" = c.surface
     FROM (SELECT DISTINCT ON (g.id) g.id, s.key AS surface FROM "GraphEntity" g, jsonb_each_text(g."surfaces") s
           WHERE g."key" = ANY($1::text[]) AND g."kind" <> 'property' ORDER BY g.id, s.value::float8 DESC, s.key COLLATE "C" ASC) c
     WHERE e.id = c.id AND e."label" IS DISTINCT FROM c.surface`,
    [keys],
  );
}

/** Every tuple and entity: the graph of a scratch copy made to be rebuilt from nothing (bench graph). */
export async function clearGraph(db: Database) {
  await db.bulkExecute(`DELETE FROM "GraphTuple"`, []);
  await db.bulkExecute(`DELETE FROM "GraphEntity"`, []);
}

/** Tuples of papers that no longer exist, and entities no tuple uses any more. */
export async function deleteOrphans(db: Database): Promise<{ tuples: number; entities: number }> {
  const tuples = await db.bulkExecute(
    `DELETE FROM "GraphTuple" t WHERE t."paperId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "Paper" p WHERE p.id = t."paperId")`,
    [],
  );
  const entities = await db.bulkExecute(
    // Clustering merges are remade after every build that changes the graph, so an unused representative goes
    // too (its merged entities are then their own until clustering runs); kept, it would linger and, being among
    // the names clustered next, make the graph differ from one built from nothing.
    `DELETE FROM "GraphEntity" e WHERE NOT EXISTS (SELECT 1 FROM "GraphTuple" t WHERE t."subjectId" = e.id OR t."objectId" = e.id)`,
    [],
  );
  return { tuples, entities };
}

/** What a paper's graph stamp is made of, besides the extractor: its record's extractor and last change. */
export async function recordVersions(db: Database): Promise<{ paperId: string; extractor: string; updatedAt: Date }[]> {
  return db.prisma.paperRecord.findMany({ select: { paperId: true, extractor: true, updatedAt: true } });
}

/** Papers with a structured record, one page at a time, with what tuple extraction reads. */
export async function papersForGraph(db: Database, afterId: string | null, take: number) {
  return db.prisma.paperRecord.findMany({
    where: afterId ? { paperId: { gt: afterId } } : {},
    orderBy: { paperId: 'asc' },
    take,
    select: {
      paperId: true,
      extractor: true,
      updatedAt: true,
      record: true,
      paper: { select: { paragraphs: { select: { id: true, text: true }, orderBy: { ordinal: 'asc' } } } },
    },
  });
}

export async function graphCounts(db: Database) {
  const [entities, tuples, causal, merged] = await Promise.all([
    db.prisma.graphEntity.count(),
    db.prisma.graphTuple.count(),
    db.prisma.graphTuple.count({ where: { causal: true } }),
    db.prisma.graphEntity.count({ where: { mergedIntoId: { not: null } } }),
  ]);
  return { entities, tuples, causal, merged };
}

export interface EdgeRow {
  id: string;
  subjectKey: string;
  objectKey: string;
  relation: string;
}

/** Every edge as (subject key, relation, object key), for in-process traversal. */
export async function allEdges(db: Database): Promise<EdgeRow[]> {
  return db.prisma.$queryRawUnsafe<EdgeRow[]>(
    `SELECT t.id, s.key AS "subjectKey", o.key AS "objectKey", t.relation FROM "GraphTuple" t JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId"`,
  );
}

export async function tuplesByIds(db: Database, ids: string[]): Promise<StoredTuple[]> {
  if (ids.length === 0) return [];
  return db.prisma.$queryRawUnsafe<StoredTuple[]>(
    `SELECT t.id, s.key AS "subjectKey", t.relation, o.key AS "objectKey", t."referenceRelation", t."referenceNode", t.value, t."valueMax", t.unit, t.causal, t."paperId", t."paragraphId", t."recordId", t.start, t."end", t.sentence, t.stamp
     FROM "GraphTuple" t JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId" WHERE t.id = ANY($1::text[]) ORDER BY t.id`,
    ids,
  );
}

export async function tuplesTouching(db: Database, keys: string[], limit: number): Promise<StoredTuple[]> {
  if (keys.length === 0) return [];
  return db.prisma.$queryRawUnsafe<StoredTuple[]>(
    `SELECT t.id, s.key AS "subjectKey", t.relation, o.key AS "objectKey", t."referenceRelation", t."referenceNode", t.value, t."valueMax", t.unit, t.causal, t."paperId", t."paragraphId", t."recordId", t.start, t."end", t.sentence, t.stamp
     FROM "GraphTuple" t JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId"
     WHERE s.key = ANY($1::text[]) OR o.key = ANY($1::text[]) ORDER BY t.id LIMIT $2`,
    keys,
    limit,
  );
}

/** Every entity as a graph store receives it (graph:sync). */
export async function entitiesForSync(db: Database) {
  return db.prisma.graphEntity.findMany({ select: { key: true, label: true, kind: true, formula: true, surfaces: true } });
}

/** Ids of the entities whose merge a curator undid (clustering must not redo it). */
export async function undoneMergeIds(db: Database): Promise<Set<string>> {
  return new Set((await db.prisma.graphEntity.findMany({ where: { mergeMethod: 'undone' }, select: { id: true } })).map((e) => e.id));
}

/** Entities whose key is a folded name (the only ones canonical clustering merges). */
export async function nameEntities(db: Database) {
  return db.prisma.graphEntity.findMany({ where: { key: { startsWith: 'n:' } }, select: { id: true, key: true, label: true }, orderBy: { key: 'asc' } });
}

/** Replaces all embedding merges by the given ones (entity id → representative id and distance). */
export async function replaceEmbeddingMerges(db: Database, merges: { id: string; into: string; distance: number; method: string }[]) {
  await db.bulkExecute(
    `UPDATE "GraphEntity" SET "mergedIntoId" = NULL, "mergeMethod" = NULL, "mergeDistance" = NULL WHERE "mergeMethod" IN ('embedding', 'numeric')`,
    [],
  );
  for (let i = 0; i < merges.length; i += 2000) {
    const batch = merges.slice(i, i + 2000);
    await db.bulkExecute(
      `UPDATE "GraphEntity" e SET "mergedIntoId" = m.into, "mergeMethod" = m.method, "mergeDistance" = m.distance
       FROM (SELECT unnest($1::text[]) AS id, unnest($2::text[]) AS into, unnest($3::text[]) AS method, unnest($4::float8[]) AS distance) m WHERE e.id = m.id`,
      [batch.map((m) => m.id), batch.map((m) => m.into), batch.map((m) => m.method), batch.map((m) => m.distance)],
    );
  }
}

/** Undoes one merge: the entity becomes its own representative again (its tuples and spellings never moved). */
export async function undoMerge(db: Database, key: string) {
  return db.prisma.graphEntity.updateMany({
    where: { key, mergedIntoId: { not: null } },
    data: { mergedIntoId: null, mergeMethod: 'undone', mergeDistance: null },
  });
}

/** Lets canonical clustering merge an entity again (after an undo); the next graph build decides. */
export async function allowMerge(db: Database, key: string) {
  return db.prisma.graphEntity.updateMany({ where: { key, mergeMethod: 'undone' }, data: { mergeMethod: null } });
}

export interface MergeMember {
  key: string;
  label: string;
  method: string | null;
  distance: number | null;
  surfaces: Record<string, number>;
  tuples: number;
}

export interface MergeGroup {
  representative: { key: string; label: string; tuples: number };
  members: MergeMember[];
}

/**
 * The merges canonical clustering made, one group per representative (most members first), optionally only
 * groups in which some name contains `q`; and the merges undone by hand.
 */
export async function mergeGroups(
  db: Database,
  opts: { q?: string; skip?: number; take?: number } = {},
): Promise<{ total: number; groups: MergeGroup[]; undone: MergeMember[] }> {
  const like = opts.q?.trim() ? `%${opts.q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const filter = like
    ? `AND (r.label ILIKE $1 OR r.key ILIKE $1 OR EXISTS (SELECT 1 FROM "GraphEntity" x WHERE x."mergedIntoId" = r.id AND x.label ILIKE $1))`
    : '';
  const params: unknown[] = like ? [like] : [];
  const [{ n }] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(DISTINCT r.id)::int AS n FROM "GraphEntity" r JOIN "GraphEntity" m ON m."mergedIntoId" = r.id WHERE true ${filter}`,
    ...params,
  );
  const reps = await db.prisma.$queryRawUnsafe<{ id: string; key: string; label: string; members: number }[]>(
    `SELECT r.id, r.key, r.label, count(m.id)::int AS members FROM "GraphEntity" r JOIN "GraphEntity" m ON m."mergedIntoId" = r.id
     WHERE true ${filter} GROUP BY r.id, r.key, r.label ORDER BY members DESC, r.label LIMIT ${Math.min(opts.take ?? 50, 200)} OFFSET ${Math.max(opts.skip ?? 0, 0)}`,
    ...params,
  );
  const withCounts = { _count: { select: { subjectOf: true, objectOf: true } } } as const;
  const members = await db.prisma.graphEntity.findMany({
    where: { mergedIntoId: { in: reps.map((r) => r.id) } },
    select: { key: true, label: true, mergeMethod: true, mergeDistance: true, surfaces: true, mergedIntoId: true, ...withCounts },
    orderBy: [{ mergeDistance: 'asc' }, { key: 'asc' }],
  });
  const repCounts = await db.prisma.graphEntity.findMany({ where: { id: { in: reps.map((r) => r.id) } }, select: { id: true, ...withCounts } });
  const member = (m: (typeof members)[number]): MergeMember => ({
    key: m.key,
    label: m.label,
    method: m.mergeMethod,
    distance: m.mergeDistance,
    surfaces: m.surfaces as Record<string, number>,
    tuples: m._count.subjectOf + m._count.objectOf,
  });
  const undone = await db.prisma.graphEntity.findMany({
    where: { mergeMethod: 'undone' },
    select: { key: true, label: true, mergeMethod: true, mergeDistance: true, surfaces: true, mergedIntoId: true, ...withCounts },
    orderBy: { key: 'asc' },
    take: 200,
  });
  return {
    total: n,
    groups: reps.map((r) => {
      const c = repCounts.find((x) => x.id === r.id)!._count;
      return {
        representative: { key: r.key, label: r.label, tuples: c.subjectOf + c.objectOf },
        members: members.filter((m) => m.mergedIntoId === r.id).map(member),
      };
    }),
    undone: undone.map(member),
  };
}

export interface RetrievalTupleRow
  extends Pick<
    StoredTuple,
    | 'id'
    | 'subjectKey'
    | 'relation'
    | 'objectKey'
    | 'referenceRelation'
    | 'referenceNode'
    | 'value'
    | 'valueMax'
    | 'unit'
    | 'causal'
    | 'paperId'
    | 'paragraphId'
    | 'recordId'
    | 'sentence'
  > {
  subjectLabel: string;
  /** The representative's key when the subject was merged by canonical clustering, else its own key. */
  subjectCanonical: string;
  /** The representative's label (the canonical entity's name, which canonical retrieval embeds). */
  subjectCanonicalLabel: string;
  objectLabel: string;
  objectCanonical: string;
  objectCanonicalLabel: string;
}

/** Every tuple with its entities' labels and canonical keys (the representative's key for merged entities). */
export async function tuplesForRetrieval(db: Database): Promise<RetrievalTupleRow[]> {
  return db.prisma.$queryRawUnsafe<RetrievalTupleRow[]>(
    `SELECT t.id, s.key AS "subjectKey", s.label AS "subjectLabel", coalesce(sm.key, s.key) AS "subjectCanonical", coalesce(sm.label, s.label) AS "subjectCanonicalLabel",
            t.relation, o.key AS "objectKey", o.label AS "objectLabel", coalesce(om.key, o.key) AS "objectCanonical", coalesce(om.label, o.label) AS "objectCanonicalLabel",
            t."referenceRelation", t."referenceNode", t.value, t."valueMax", t.unit, t.causal, t."paperId", t."paragraphId", t."recordId", t.sentence
     FROM "GraphTuple" t JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId"
     LEFT JOIN "GraphEntity" sm ON sm.id = s."mergedIntoId" LEFT JOIN "GraphEntity" om ON om.id = o."mergedIntoId" ORDER BY t.id`,
  );
}

/** A tuple with its entities' labels and kinds, for display. */
export interface LabelledTuple extends StoredTuple {
  /** The paragraph's position in its paper, when the tuple comes from a paragraph. */
  paragraphOrdinal: number | null;
  subjectLabel: string;
  subjectKind: string;
  /** The key of the entity canonical clustering merged the subject into (null: not merged). */
  subjectMergedInto: string | null;
  objectLabel: string;
  objectKind: string;
  objectMergedInto: string | null;
}

/**
 * The tuples extracted from some paragraphs, with the given ids, or touching the given entity keys (at most
 * `limit`; the tuples named by id first), with their entities' labels and merge representatives.
 */
export async function labelledTuples(
  db: Database,
  where: { paragraphId?: string; paragraphIds?: string[]; ids?: string[]; touching?: string[] },
  limit = 100,
): Promise<LabelledTuple[]> {
  const paragraphIds = [...(where.paragraphId ? [where.paragraphId] : []), ...(where.paragraphIds ?? [])];
  if (!paragraphIds.length && !where.ids?.length && !where.touching?.length) return [];
  return db.prisma.$queryRawUnsafe<LabelledTuple[]>(
    `SELECT t.id, s.key AS "subjectKey", s.label AS "subjectLabel", s.kind AS "subjectKind", sm.key AS "subjectMergedInto", t.relation,
            o.key AS "objectKey", o.label AS "objectLabel", o.kind AS "objectKind", om.key AS "objectMergedInto",
            t."referenceRelation", t."referenceNode", t.value, t."valueMax", t.unit, t.causal, t."paperId", t."paragraphId",
            t."recordId", t.start, t."end", t.sentence, t.stamp, p.ordinal AS "paragraphOrdinal"
     FROM "GraphTuple" t JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId"
     LEFT JOIN "GraphEntity" sm ON sm.id = s."mergedIntoId" LEFT JOIN "GraphEntity" om ON om.id = o."mergedIntoId"
     LEFT JOIN "Paragraph" p ON p.id = t."paragraphId"
     WHERE t."paragraphId" = ANY($1::text[]) OR t.id = ANY($2::text[]) OR s.key = ANY($3::text[]) OR o.key = ANY($3::text[])
     ORDER BY (t.id = ANY($2::text[])) DESC, t.start NULLS LAST, t.id LIMIT $4`,
    paragraphIds,
    where.ids ?? [],
    where.touching ?? [],
    limit,
  );
}

/** The keys of an entity's merge family: its representative and every entity merged into it (itself included). */
export async function mergeFamily(db: Database, key: string): Promise<string[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ key: string }[]>(
    `WITH me AS (SELECT COALESCE(e."mergedIntoId", e.id) AS rep FROM "GraphEntity" e WHERE e.key = $1)
     SELECT g.key FROM "GraphEntity" g, me WHERE g.id = me.rep OR g."mergedIntoId" = me.rep ORDER BY g.key LIMIT 50`,
    key,
  );
  return rows.length ? rows.map((r) => r.key) : [key];
}

/** Entities whose label or key contains `q` (case-insensitive), most connected first: where an exploration starts. */
export async function findEntities(db: Database, q: string, take = 20): Promise<{ key: string; label: string; kind: string; tuples: number }[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ key: string; label: string; kind: string; tuples: bigint | number }[]>(
    `SELECT e.key, e.label, e.kind, (SELECT COUNT(*) FROM "GraphTuple" t WHERE t."subjectId" = e.id OR t."objectId" = e.id) AS tuples
     FROM "GraphEntity" e WHERE e.label ILIKE $1 OR e.key ILIKE $1 ORDER BY tuples DESC, e.label LIMIT $2`,
    `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    take,
  );
  return rows.map((r) => ({ ...r, tuples: Number(r.tuples) }));
}

/** A tuple read from a paper's text, with its domain: what the ask screen's example questions are written from. */
export interface ExampleTuple {
  domain: string | null;
  subject: string;
  relation: string;
  object: string;
  value: number | null;
  valueMax: number | null;
  unit: string | null;
}

/**
 * Up to three tuples per domain of each listed relation read from paragraphs (not from records), one per domain
 * first, spread by a hash of the tuple id so the choice is stable for a corpus but not biased to its first papers.
 */
export async function exampleTuples(db: Database, relations: string[]): Promise<ExampleTuple[]> {
  // Pick the tuples first (ids, relation and domain only), then read the labels of the few picked.
  return db.prisma.$queryRawUnsafe<ExampleTuple[]>(
    `WITH picked AS (
       SELECT * FROM (
         SELECT t.id, t.relation, p.domain,
                row_number() OVER (PARTITION BY t.relation, p.domain ORDER BY md5(t.id)) AS in_domain
         FROM "GraphTuple" t JOIN "Paper" p ON p.id = t."paperId"
         WHERE t."paragraphId" IS NOT NULL AND t.relation = ANY($1::text[])
       ) x WHERE in_domain <= 3
     )
     SELECT k.domain, s.label AS subject, t.relation, o.label AS object, t.value, t."valueMax", t.unit
     FROM picked k JOIN "GraphTuple" t ON t.id = k.id JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId"
     WHERE length(s.label) BETWEEN 2 AND 40
     ORDER BY t.relation, k.in_domain, md5(t.id)`,
    relations,
  );
}
