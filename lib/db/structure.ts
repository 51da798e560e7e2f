import { orderedId } from '../common/ordered-id.ts';
import type { Database } from './database.ts';
import { Prisma } from './generated/client.ts';
import type { ParagraphStructure } from '../structure/paragraph.ts';

/** Owns all queries on the structuring annotations: Paragraph.role/method/structuredBy, Mention, PaperRecord. */

export interface ParagraphToStructure {
  id: string;
  paperId: string;
  text: string;
  structuredBy: string | null;
}

/** One page of paragraphs in id order (keyset pagination keeps memory flat at any corpus size). */
export async function paragraphPage(db: Database, afterId: string | null, take: number, papers?: string[]): Promise<ParagraphToStructure[]> {
  return db.prisma.paragraph.findMany({
    where: { ...(afterId ? { id: { gt: afterId } } : {}), ...(papers ? { paperId: { in: papers } } : {}) },
    orderBy: { id: 'asc' },
    take,
    select: { id: true, paperId: true, text: true, structuredBy: true },
  });
}

/**
 * Replaces the annotations of a batch of paragraphs: mentions first, the paragraph's stamp last, so an
 * interrupted write is redone by the next run and never leaves a paragraph marked done without its mentions.
 */
export async function saveParagraphStructures(db: Database, items: { paragraph: ParagraphToStructure; stamp: string; structure: ParagraphStructure }[]) {
  if (items.length === 0) return;
  const ids = items.map((i) => i.paragraph.id);
  await db.bulkExecute(`DELETE FROM "Mention" WHERE "paragraphId" = ANY($1::text[])`, [ids]);
  const mentions = items.flatMap(({ paragraph, structure }) => [
    ...structure.entities.map((e) => ({
      id: orderedId(),
      paragraphId: paragraph.id,
      paperId: paragraph.paperId,
      kind: 'entity',
      type: e.role,
      text: e.text,
      start: e.start,
      end: e.end,
      key: e.key,
      formula: e.formula,
      unit: null,
      valueMin: null,
      valueMax: null,
      detail: null,
    })),
    ...structure.quantities.map((q) => ({
      id: orderedId(),
      paragraphId: paragraph.id,
      paperId: paragraph.paperId,
      kind: 'quantity',
      type: q.dimension,
      text: q.text,
      start: q.start,
      end: q.end,
      key: null,
      formula: null,
      unit: q.canonicalUnit,
      valueMin: Math.min(...q.canonical),
      valueMax: Math.max(...q.canonical),
      detail: { values: q.values, unit: q.unit, kind: q.kind, plusMinus: q.plusMinus, comparator: q.comparator, reference: q.reference },
    })),
  ]);
  if (mentions.length) {
    await db.bulkExecute(
      `INSERT INTO "Mention" (id, "paragraphId", "paperId", kind, type, text, start, "end", key, formula, unit, "valueMin", "valueMax", detail)
       SELECT x.id, x."paragraphId", x."paperId", x.kind, x.type, x.text, x.start, x."end", x.key, x.formula, x.unit, x."valueMin", x."valueMax", x.detail
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, "paragraphId" text, "paperId" text, kind text, type text, text text, start int, "end" int,
            key text, formula text, unit text, "valueMin" double precision, "valueMax" double precision, detail jsonb)`,
      [JSON.stringify(mentions)],
    );
  }
  await db.bulkExecute(
    `UPDATE "Paragraph" p SET role = x.role, method = x.method, "structuredBy" = x.stamp
     FROM jsonb_to_recordset($1::jsonb) AS x(id text, role text, method text, stamp text) WHERE p.id = x.id`,
    [JSON.stringify(items.map((i) => ({ id: i.paragraph.id, role: i.structure.role, method: i.structure.method, stamp: i.stamp })))],
  );
}

/** The papers whose structured records are to be built (their paragraphs in order and imported records), in one read. */
export async function papersForRecord(db: Database, paperIds: string[]) {
  if (paperIds.length === 0) return [];
  return db.prisma.paper.findMany({
    where: { id: { in: paperIds } },
    select: {
      id: true,
      doi: true,
      title: true,
      paragraphs: { orderBy: { ordinal: 'asc' }, select: { id: true, ordinal: true, section: true, text: true, role: true, method: true } },
      // In the order they were imported (ordered ids), whatever plan reads them.
      records: { select: { id: true, kind: true, data: true }, orderBy: { id: 'asc' } },
    },
  });
}

export async function savePaperRecords(db: Database, rows: { paperId: string; extractor: string; record: unknown }[]) {
  if (rows.length === 0) return;
  await db.bulkExecute(
    `INSERT INTO "PaperRecord" ("paperId", extractor, record, "updatedAt")
     SELECT x."paperId", x.extractor, x.record, now() FROM jsonb_to_recordset($1::jsonb) AS x("paperId" text, extractor text, record jsonb)
     ON CONFLICT ("paperId") DO UPDATE SET extractor = EXCLUDED.extractor, record = EXCLUDED.record, "updatedAt" = now()`,
    [JSON.stringify(rows)],
  );
}

/** Papers (of `among`, when given) that have no record yet, or whose record was made by another extractor. */
export async function papersWithoutRecord(db: Database, extractor: string, among?: string[]): Promise<string[]> {
  if (among?.length === 0) return [];
  const rows = await db.prisma.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM "Paper" p LEFT JOIN "PaperRecord" r ON r."paperId" = p.id
    WHERE (r."paperId" IS NULL OR r.extractor <> ${extractor}) ${among ? Prisma.sql`AND p.id IN (${Prisma.join(among)})` : Prisma.empty}`;
  return rows.map((r) => r.id);
}

/** Every annotation and record the structuring stage wrote: a scratch copy to be structured from nothing (bench stages). */
export async function clearStructuring(db: Database) {
  await db.bulkExecute(`DELETE FROM "Mention"`, []);
  await db.bulkExecute(`DELETE FROM "PaperRecord"`, []);
  await db.bulkExecute(`UPDATE "Paragraph" SET "structuredBy" = NULL`, []);
}

/** Every paper in id order with how many paragraphs it has (the structuring and graph stages cut their shards by it). */
export async function paperSizes(db: Database): Promise<{ id: string; paragraphs: number }[]> {
  const rows = await db.prisma.$queryRaw<{ id: string; paragraphs: number }[]>`
    SELECT p.id, count(g.id)::int AS paragraphs FROM "Paper" p LEFT JOIN "Paragraph" g ON g."paperId" = p.id
    GROUP BY p.id ORDER BY p.id`;
  return rows;
}

export async function getPaperRecord(db: Database, paperId: string) {
  return db.prisma.paperRecord.findUnique({ where: { paperId } });
}

export async function structureCounts(db: Database) {
  const [structured, paragraphs, synthesis, records, mentions] = await Promise.all([
    db.prisma.paragraph.count({ where: { structuredBy: { not: null } } }),
    db.prisma.paragraph.count(),
    db.prisma.paragraph.count({ where: { role: 'synthesis' } }),
    db.prisma.paperRecord.count(),
    db.prisma.mention.count(),
  ]);
  return { structured, paragraphs, synthesis, records, mentions };
}
