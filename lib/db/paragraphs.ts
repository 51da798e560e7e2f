import { orderedId } from '../common/ordered-id.ts';
import { sha256 } from '../common/hash.ts';
import type { ParsedPaper } from '../ingest/types.ts';
import type { Prisma, PrismaClient } from './generated/client.ts';

/** Paragraph rows: writing a paper's paragraphs, a paragraph in its context, and the hashes stored with a paper's text. */

/** The hash of a paper's paragraph texts: its identity when it has no DOI or source id. */
export function paperContentHash(p: ParsedPaper): string {
  return sha256(p.paragraphs.map((x) => x.text).join('\n'));
}

/** The hash of everything a reader produced: equal means a re-import changes nothing. */
export function paperFingerprint(p: ParsedPaper): string {
  return sha256(JSON.stringify(p));
}

/** A paper's paragraphs as rows to insert (ids made here). */
export function paragraphRows(p: ParsedPaper) {
  return p.paragraphs.map((para, ordinal) => ({
    id: orderedId(),
    ordinal,
    text: para.text,
    section: para.section,
    kind: para.kind,
    page: para.page ?? null,
    externalId: para.externalId ?? null,
  }));
}

/** All paragraphs of a paper in one statement, passed as one JSONB parameter (much faster than bound rows). */
export async function insertParagraphs(tx: Prisma.TransactionClient, paperId: string, p: ParsedPaper) {
  const rows = paragraphRows(p);
  await tx.$executeRaw`
    INSERT INTO "Paragraph" (id, "paperId", ordinal, "externalId", section, kind, page, text)
    SELECT x.id, ${paperId}, x.ordinal, x."externalId", x.section, x.kind, x.page, x.text
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS x(id text, ordinal int, "externalId" text, section text, kind text, page int, text text)`;
}

/** A paragraph with its paper's metadata and the paragraphs just before and after it (the provenance panel's source). */
export async function paragraphInContext(prisma: PrismaClient, paragraphId: string) {
  const paragraph = await prisma.paragraph.findUnique({
    where: { id: paragraphId },
    select: {
      id: true,
      ordinal: true,
      section: true,
      text: true,
      role: true,
      kind: true,
      externalId: true,
      paper: { select: { id: true, title: true, authors: true, journal: true, year: true, doi: true, license: true, source: true } },
    },
  });
  if (!paragraph) return null;
  const neighbours = await prisma.paragraph.findMany({
    where: { paperId: paragraph.paper.id, ordinal: { in: [paragraph.ordinal - 1, paragraph.ordinal + 1] } },
    select: { ordinal: true, section: true, text: true },
  });
  return {
    paragraph,
    before: neighbours.find((n) => n.ordinal === paragraph.ordinal - 1) ?? null,
    after: neighbours.find((n) => n.ordinal === paragraph.ordinal + 1) ?? null,
  };
}
