import type { Database } from './database.ts';

/**
 * The graph's entity merges: the names canonical clustering merges, its merges (replaced whole by each clustering),
 * a curator's undo and allow, the merge groups /graph lists, an entity's merge family and entity search.
 */

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
  // Bounded work whatever the name: at most FIND_CANDIDATES names (the exact one, then the shortest, which are what a
  // person types) have their tuples counted, each count by its own index (subject, object) rather than an OR the
  // planner scans for. "a" matched thousands of names, each counted, and ran past the search budget on a busy machine.
  const rows = await db.prisma.$queryRawUnsafe<{ key: string; label: string; kind: string; tuples: bigint | number }[]>(
    `WITH hits AS (
       SELECT e.id, e.key, e.label, e.kind, lower(e.label) = lower($3) AS exact FROM "GraphEntity" e
       WHERE e.label ILIKE $1 OR e.key ILIKE $1 ORDER BY exact DESC, length(e.label), e.label LIMIT ${FIND_CANDIDATES}
     )
     SELECT h.key, h.label, h.kind,
            (SELECT COUNT(*) FROM "GraphTuple" t WHERE t."subjectId" = h.id) + (SELECT COUNT(*) FROM "GraphTuple" t WHERE t."objectId" = h.id) AS tuples
     FROM hits h ORDER BY h.exact DESC, tuples DESC, h.label LIMIT $2`,
    `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    take,
    q,
  );
  return rows.map((r) => ({ ...r, tuples: Number(r.tuples) }));
}

/** Names whose tuples an entity search counts at most (see findEntities). */
const FIND_CANDIDATES = 400;

/** Entities by key with their tuple count and merge, for choosing a merge's representative. */
export async function entityMergeState(
  db: Database,
  keys: string[],
): Promise<Map<string, { id: string; key: string; kind: string; tuples: number; mergedIntoId: string | null; mergeMethod: string | null }>> {
  if (keys.length === 0) return new Map();
  const rows = await db.prisma.graphEntity.findMany({
    where: { key: { in: keys } },
    select: { id: true, key: true, kind: true, mergedIntoId: true, mergeMethod: true, _count: { select: { subjectOf: true, objectOf: true } } },
  });
  return new Map(rows.map((r) => [r.key, { ...r, tuples: r._count.subjectOf + r._count.objectOf }]));
}

/**
 * Replaces the merges made by `method` with the given ones (entity key → representative key). An entity whose merge a
 * curator undid stays its own; any other merge of a member gives way (the caller's evidence is the stronger).
 */
export async function replaceMergesByKey(db: Database, method: string, merges: { key: string; into: string }[]): Promise<void> {
  // Every statement on the table is a new corpus version, even one that changes no row (the stamp's trigger is
  // per statement): merges as they stand write nothing, or each linking run would send the next question to a rebuild.
  const now = await db.prisma.$queryRawUnsafe<{ key: string; into: string }[]>(
    `SELECT e.key, r.key AS "into" FROM "GraphEntity" e JOIN "GraphEntity" r ON r.id = e."mergedIntoId" WHERE e."mergeMethod" = $1`,
    method,
  );
  const pair = (m: { key: string; into: string }) => `${m.key}\u0000${m.into}`;
  const wanted = new Set(merges.map(pair));
  if (now.length === wanted.size && now.every((m) => wanted.has(pair(m)))) return;
  await db.bulkExecute(`UPDATE "GraphEntity" SET "mergedIntoId" = NULL, "mergeMethod" = NULL, "mergeDistance" = NULL WHERE "mergeMethod" = $1`, [method]);
  if (merges.length === 0) return;
  await db.bulkExecute(
    `UPDATE "GraphEntity" e SET "mergedIntoId" = r.id, "mergeMethod" = $3, "mergeDistance" = 0
     FROM (SELECT unnest($1::text[]) AS key, unnest($2::text[]) AS into) m JOIN "GraphEntity" r ON r.key = m.into
     WHERE e.key = m.key AND e."mergeMethod" IS DISTINCT FROM 'undone'`,
    [merges.map((m) => m.key), merges.map((m) => m.into), method],
  );
}
