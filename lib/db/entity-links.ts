import type { Database } from './database.ts';

/**
 * The EntityLink table: graph entities linked to Wikidata items (lib/graph/entity-links.ts), by entity key. A
 * rejected link is kept (reviewable, reversible), so a later run does not make it again.
 */
export interface EntityLinkRow {
  entityKey: string;
  status: 'linked' | 'none' | 'rejected' | 'error';
  qid: string | null;
  label: string | null;
  description: string | null;
  aliases: string[];
  formula: string | null;
  method: 'formula' | 'label' | null;
  message: string | null;
  checkedAt: Date;
  reviewedAt: Date | null;
}

/** Graph entities (materials, properties, methods) never asked about, or whose last attempt failed, busiest first. */
export async function entitiesToLink(db: Database, limit: number): Promise<{ key: string; label: string; kind: string; formula: string | null }[]> {
  return db.prisma.$queryRaw`
    SELECT e.key, e.label, e.kind, e.formula FROM "GraphEntity" e
    LEFT JOIN "EntityLink" l ON l."entityKey" = e.key
    WHERE e.kind IN ('material', 'property', 'method') AND e."mergedIntoId" IS NULL AND (l."entityKey" IS NULL OR l.status = 'error')
    ORDER BY (SELECT count(*) FROM "GraphTuple" t WHERE t."subjectId" = e.id OR t."objectId" = e.id) DESC, e.key
    LIMIT ${limit}`;
}

/**
 * Stores outcomes in one transaction: each write of the table is a new corpus version (the index rebuilds its
 * question expansion), so a run writes in a few batches, not entity by entity.
 */
export async function saveEntityLinks(db: Database, rows: Omit<EntityLinkRow, 'checkedAt' | 'reviewedAt'>[]): Promise<void> {
  if (rows.length === 0) return;
  await db.prisma.$transaction(
    rows.map((row) => db.prisma.entityLink.upsert({ where: { entityKey: row.entityKey }, create: row, update: { ...row, checkedAt: new Date() } })),
  );
}

export async function entityLinks(db: Database, keys: string[]): Promise<Map<string, EntityLinkRow>> {
  if (keys.length === 0) return new Map();
  const rows = (await db.prisma.entityLink.findMany({ where: { entityKey: { in: keys } } })) as unknown as EntityLinkRow[];
  return new Map(rows.map((r) => [r.entityKey, r]));
}

/** Every linked entity (for question expansion and the graph page). */
export async function linkedEntities(db: Database): Promise<EntityLinkRow[]> {
  return (await db.prisma.entityLink.findMany({ where: { status: 'linked' }, orderBy: { entityKey: 'asc' } })) as unknown as EntityLinkRow[];
}

/** A curator's review: `false` rejects a link (kept, never made again), `true` restores it. */
export async function reviewEntityLink(db: Database, entityKey: string, keep: boolean): Promise<boolean> {
  const done = await db.prisma.entityLink.updateMany({
    where: { entityKey, status: keep ? 'rejected' : 'linked', qid: { not: null } },
    data: { status: keep ? 'linked' : 'rejected', reviewedAt: new Date() },
  });
  return done.count === 1;
}

export async function entityLinkCounts(db: Database): Promise<Record<string, number>> {
  const rows = await db.prisma.entityLink.groupBy({ by: ['status'], _count: { _all: true } });
  return Object.fromEntries(rows.map((r) => [r.status, r._count._all]));
}

/** The graph page's list: linked and rejected links (with the entity's label), busiest-first is not needed here. */
export async function linksForReview(db: Database, take: number): Promise<(EntityLinkRow & { entityLabel: string })[]> {
  return db.prisma.$queryRaw`
    SELECT l.*, e.label AS "entityLabel" FROM "EntityLink" l JOIN "GraphEntity" e ON e.key = l."entityKey"
    WHERE l.status IN ('linked', 'rejected') ORDER BY l.status, e.label LIMIT ${take}`;
}
