import { createHash } from 'node:crypto';
import type { Database } from './database.ts';
import type { ComparableTuple } from '../graph/validate-tuples.ts';

/** Owns all queries on GraphEntity and GraphTuple (the relational side of the knowledge graph). */

export interface StoredEntity {
  key: string;
  label: string;
  kind: string;
  formula: string | null;
  /** surface → times seen in this batch */
  surfaces: Record<string, number>;
}

/**
 * When papers disagree on what an entity is, the kind earlier here wins ("LSCO" a material in one paper, a bare
 * concept in another, is a material), and between papers of the same kind the least formula that is not null: a
 * rule that does not depend on the order papers are read in, so graph shards running at once store what one build
 * does. build.ts applies it within a page, upsertEntities between pages.
 */
export const ENTITY_KIND_PRECEDENCE = ['material', 'method', 'property', 'value', 'concept'];

const kindRank = (kind: string) => {
  const i = ENTITY_KIND_PRECEDENCE.indexOf(kind);
  return i < 0 ? ENTITY_KIND_PRECEDENCE.length : i;
};

/** The kind and formula two sightings of one entity settle on (ENTITY_KIND_PRECEDENCE): associative and commutative. */
export function settleEntity(a: Pick<StoredEntity, 'kind' | 'formula'>, b: Pick<StoredEntity, 'kind' | 'formula'>): Pick<StoredEntity, 'kind' | 'formula'> {
  const [ra, rb] = [kindRank(a.kind), kindRank(b.kind)];
  if (ra !== rb) return ra < rb ? { kind: a.kind, formula: a.formula } : { kind: b.kind, formula: b.formula };
  if (a.kind !== b.kind) return a.kind < b.kind ? { kind: a.kind, formula: a.formula } : { kind: b.kind, formula: b.formula };
  const formula = a.formula === null ? b.formula : b.formula === null ? a.formula : a.formula < b.formula ? a.formula : b.formula;
  return { kind: a.kind, formula };
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
  // In key order: graph shards of several processes upsert at once, and rows locked in one order cannot deadlock.
  const sorted = [...entities].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; i < sorted.length; i += 2000) {
    const batch = sorted.slice(i, i + 2000);
    const params: unknown[] = [];
    const rows = batch.map((e, j) => {
      params.push(entityId(e.key), e.key, e.label, e.kind, e.formula, JSON.stringify(e.surfaces));
      const b = j * 6;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}::jsonb, now())`;
    });
    // Surfaces accumulate: each spelling's count is the sum over the batches that met it, so the counts (and the
    // commonest spelling) do not depend on the order papers are read in, nor on which shard read them. The label
    // is the first spelling met, unless the entity's spellings were reset (resetEntitySpellings): then it is this
    // batch's. A build ends by labelling every entity by its commonest spelling (labelByCommonestSpelling).
    // Kind and formula as settleEntity settles them (ties in code-point order: COLLATE "C").
    const rank = (t: string) => `COALESCE(array_position($${params.length + 1}::text[], ${t}."kind"), ${ENTITY_KIND_PRECEDENCE.length})`;
    const better = `(${rank('EXCLUDED')} < ${rank('"GraphEntity"')} OR (${rank('EXCLUDED')} = ${rank('"GraphEntity"')} AND EXCLUDED."kind" COLLATE "C" < "GraphEntity"."kind" COLLATE "C"))`;
    const same = `EXCLUDED."kind" = "GraphEntity"."kind"`;
    params.push(ENTITY_KIND_PRECEDENCE);
    await db.bulkExecute(
      `INSERT INTO "GraphEntity" ("id", "key", "label", "kind", "formula", "surfaces", "updatedAt") VALUES ${rows.join(', ')}
       ON CONFLICT ("key") DO UPDATE SET "updatedAt" = now(),
         "kind" = CASE WHEN ${better} THEN EXCLUDED."kind" ELSE "GraphEntity"."kind" END,
         "formula" = CASE WHEN ${better} THEN EXCLUDED."formula"
                          WHEN ${same} THEN LEAST("GraphEntity"."formula" COLLATE "C", EXCLUDED."formula" COLLATE "C")
                          ELSE "GraphEntity"."formula" END,
         "surfaces" = (SELECT COALESCE(jsonb_object_agg(k, COALESCE(("GraphEntity"."surfaces" ->> k)::numeric, 0) + COALESCE((EXCLUDED."surfaces" ->> k)::numeric, 0)), '{}'::jsonb)
                       FROM jsonb_object_keys("GraphEntity"."surfaces" || EXCLUDED."surfaces") AS k),
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
export async function paperStamps(db: Database, among?: string[]): Promise<Map<string, string>> {
  const rows = await db.prisma.$queryRawUnsafe<{ paperId: string; stamp: string }[]>(
    `SELECT DISTINCT "paperId", "stamp" FROM "GraphTuple" WHERE "paperId" IS NOT NULL${among ? ` AND "paperId" = ANY($1::text[])` : ''}`,
    ...(among ? [among] : []),
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
export async function papersForGraph(db: Database, afterId: string | null, take: number, among?: string[]) {
  return db.prisma.paperRecord.findMany({
    where: afterId ? { paperId: { gt: afterId, ...(among ? { in: among } : {}) } } : among ? { paperId: { in: among } } : {},
    orderBy: { paperId: 'asc' },
    take,
    select: {
      paperId: true,
      extractor: true,
      updatedAt: true,
      record: true,
      paper: { select: { source: true, paragraphs: { select: { id: true, text: true, kind: true, section: true }, orderBy: { ordinal: 'asc' } } } },
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

/** The has_property tuples of these subjects, for judging a new paper's values against (lib/graph/validate-tuples.ts). */
export async function propertyTuplesOf(db: Database, subjectKeys: string[]): Promise<(ComparableTuple & { subjectLabel: string; objectLabel: string })[]> {
  if (subjectKeys.length === 0) return [];
  return db.prisma.$queryRawUnsafe(
    `SELECT t.id, t."paperId", s.key AS "subjectKey", o.key AS "objectKey", t.value, t."valueMax", t.unit, t."referenceNode", s.label AS "subjectLabel", o.label AS "objectLabel"
     FROM "GraphTuple" t JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId"
     WHERE t.relation = 'has_property' AND t.value IS NOT NULL AND s.key = ANY($1::text[])`,
    subjectKeys,
  );
}

/** How many tuples each paper has in the graph. */
export async function tupleCountsOfPapers(db: Database, paperIds: string[]): Promise<Map<string, number>> {
  if (paperIds.length === 0) return new Map();
  const rows = await db.prisma.graphTuple.groupBy({ by: ['paperId'], where: { paperId: { in: paperIds } }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.paperId!, r._count._all]));
}
