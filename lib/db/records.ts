import type { PrismaClient } from './generated/client.ts';
import type { Database } from './database.ts';
import type { ParsedRecord } from '../ingest/types.ts';
import { orderedId } from '../common/ordered-id.ts';
import { sha256 } from '../common/hash.ts';

/** Owns all queries on Record. */

/**
 * Stores a batch of records in one statement (so a batch is all or nothing). A record is identified by its
 * source and the hash of its JSON: re-importing the same rows adds nothing (ON CONFLICT DO NOTHING). The whole
 * batch travels as one JSONB parameter, which is several times faster than one bound parameter per field.
 */
export async function saveRecordBatch(db: Database, batch: ParsedRecord[]): Promise<{ added: number; unchanged: number }> {
  if (batch.length === 0) return { added: 0, unchanged: 0 };
  const rows = batch.map((r) => ({
    id: orderedId(),
    kind: r.kind,
    source: r.source,
    contentHash: sha256(JSON.stringify(r.data)),
    doi: r.doi,
    title: r.title,
    data: r.data,
  }));
  const added = await db.bulkExecute(
    `INSERT INTO "Record" (id, kind, source, "contentHash", doi, title, data, "createdAt")
     SELECT x.id, x.kind, x.source, x."contentHash", x.doi, x.title, x.data, now()
     FROM jsonb_to_recordset($1::jsonb)
       AS x(id text, kind text, source text, "contentHash" text, doi text, title text, data jsonb)
     ON CONFLICT (source, "contentHash") DO NOTHING`,
    [JSON.stringify(rows)],
  );
  return { added, unchanged: batch.length - added };
}

/**
 * Attaches records to the paper with their DOI (records may arrive before or after their papers). Returns the
 * papers that gained records, whose structured record must be rebuilt.
 */
export async function linkRecordsToPapers(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ paperId: string }[]>`
    UPDATE "Record" r SET "paperId" = p.id FROM "Paper" p
    WHERE r.doi IS NOT NULL AND p.doi = r.doi AND r."paperId" IS DISTINCT FROM p.id
    RETURNING r."paperId"`;
  return [...new Set(rows.map((r) => r.paperId))];
}

/** Whether any structured record is stored: one row read (counting 46,000 records scanned them all, about 50 ms in PGlite). */
export async function hasRecords(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.record.findFirst({ select: { id: true } })) !== null;
}

export async function countRecords(prisma: PrismaClient): Promise<number> {
  return prisma.record.count();
}

export async function recordsForPaper(prisma: PrismaClient, paperId: string, take = 100) {
  const [items, total] = await Promise.all([
    prisma.record.findMany({ where: { paperId }, orderBy: [{ kind: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }], take }),
    prisma.record.count({ where: { paperId } }),
  ]);
  return { items, total };
}

/** One imported record (the provenance panel's Record tab for record evidence). */
export async function getRecord(prisma: PrismaClient, id: string) {
  return prisma.record.findUnique({ where: { id }, select: { id: true, kind: true, source: true, doi: true, title: true, data: true, paperId: true } });
}

/** Records the recipe catalogue has not read at `version` (lib/synthesis/catalogue.ts), a page at a time in id order. */
export async function uncataloguedRecords(prisma: PrismaClient, version: number, after: string | null, take: number) {
  return prisma.record.findMany({
    where: { catalogued: { lt: version }, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: 'asc' },
    take,
    select: { id: true, kind: true, data: true },
  });
}

/** Writes catalogue entries (one statement per page), marking each record read at `version`. */
export async function saveCatalogueEntries(
  db: Database,
  version: number,
  entries: { id: string; targetKeys: string[]; targetElements: string[]; method: string | null }[],
): Promise<number> {
  if (!entries.length) return 0;
  return db.bulkExecute(
    `UPDATE "Record" r SET "targetKeys" = x."targetKeys", "targetElements" = x."targetElements", method = x.method, catalogued = $2
     FROM jsonb_to_recordset($1::jsonb) AS x(id text, "targetKeys" text[], "targetElements" text[], method text)
     WHERE r.id = x.id`,
    [JSON.stringify(entries), version],
  );
}

/** Whether any record waits for the catalogue at `version`: one row read. */
export async function hasUncataloguedRecords(prisma: PrismaClient, version: number): Promise<boolean> {
  return (await prisma.record.findFirst({ where: { catalogued: { lt: version } }, select: { id: true } })) !== null;
}

/** A recipe as the synthesis answer reads it, with its paper's title when the corpus holds the paper. */
export interface RecipeRow {
  id: string;
  kind: string;
  doi: string | null;
  paperId: string | null;
  paperTitle: string | null;
  targetKeys: string[];
  targetElements: string[];
  method: string | null;
  data: unknown;
}

/**
 * Recipes whose targets are one of `keys`, or contain every element of one of `elementSets` (the variants of a
 * material: doped, off-stoichiometric), at most `take`, exact targets first. Both lookups are GIN-indexed.
 */
export async function recipesForTargets(prisma: PrismaClient, keys: string[], elementSets: string[][], take: number): Promise<RecipeRow[]> {
  if (!keys.length && !elementSets.length) return [];
  const sets = elementSets.filter((s) => s.length >= 2);
  const contains = sets.map((_, i) => ` OR r."targetElements" @> $${i + 2}::text[]`).join('');
  return prisma.$queryRawUnsafe<RecipeRow[]>(
    `SELECT r.id, r.kind, r.doi, r."paperId", p.title AS "paperTitle", r."targetKeys", r."targetElements", r.method, r.data
     FROM "Record" r LEFT JOIN "Paper" p ON p.id = r."paperId"
     WHERE r."targetKeys" && $1::text[]${contains}
     ORDER BY (r."targetKeys" && $1::text[]) DESC, r.id
     LIMIT ${Math.max(1, Math.floor(take))}`,
    keys,
    ...sets,
  );
}

/**
 * The target terms of the recipes whose targets hold every one of `elements` and are not of `keys`, to tell the
 * variants of a material (doped, off-stoichiometric) without reading the recipes whole: the hundreds a common element
 * set matches (Ti–Nb–O: 767 at ×1) took about 300 ms of an answer when their JSON was read.
 */
export async function variantCandidates(prisma: PrismaClient, keys: string[], elements: string[]): Promise<{ id: string; targetKeys: string[] }[]> {
  if (elements.length < 2) return [];
  return prisma.$queryRawUnsafe(
    `SELECT id, "targetKeys" FROM "Record" WHERE "targetElements" @> $1::text[] AND NOT ("targetKeys" && $2::text[]) ORDER BY id`,
    elements,
    keys,
  );
}

/** The recipes of these ids, read whole, in id order. */
export async function recipesByIds(prisma: PrismaClient, ids: string[]): Promise<RecipeRow[]> {
  if (!ids.length) return [];
  return prisma.$queryRawUnsafe<RecipeRow[]>(
    `SELECT r.id, r.kind, r.doi, r."paperId", p.title AS "paperTitle", r."targetKeys", r."targetElements", r.method, r.data
     FROM "Record" r LEFT JOIN "Paper" p ON p.id = r."paperId" WHERE r.id = ANY($1::text[]) ORDER BY r.id`,
    ids,
  );
}

/** How many recipes the catalogue holds of each of `keys` (target material terms), by key; keys with none left out. */
export async function recipeCountsForTargets(prisma: PrismaClient, keys: string[]): Promise<Map<string, number>> {
  if (!keys.length) return new Map();
  const rows = await prisma.$queryRawUnsafe<{ key: string; n: bigint | number }[]>(
    `SELECT k AS key, count(*) AS n FROM "Record" r, unnest(r."targetKeys") AS k
     WHERE r."targetKeys" && $1::text[] AND k = ANY($1::text[]) GROUP BY k`,
    keys,
  );
  return new Map(rows.map((r) => [r.key, Number(r.n)]));
}

/** The materials the recipe catalogue holds most recipes of, by method, with a target name as written. */
export async function mostRecipedTargets(prisma: PrismaClient, take = 8): Promise<{ name: string; method: string; recipes: number }[]> {
  const rows = await prisma.$queryRawUnsafe<{ name: string | null; method: string; recipes: bigint | number }[]>(
    `SELECT min(coalesce(data->'target'->>'material_formula', data->'targets_string'->>0)) AS name, method, count(*) AS recipes
     FROM "Record" WHERE method IS NOT NULL AND cardinality("targetKeys") = 1
     GROUP BY "targetKeys"[1], method ORDER BY recipes DESC LIMIT ${Math.max(1, Math.floor(take))}`,
  );
  return rows.filter((r) => r.name).map((r) => ({ name: r.name!, method: r.method, recipes: Number(r.recipes) }));
}
