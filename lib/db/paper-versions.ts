import type { ParsedPaper } from '../ingest/types.ts';
import { Prisma, type PrismaClient } from './generated/client.ts';
import { insertParagraphs, paperContentHash, paperFingerprint } from './paragraphs.ts';

/**
 * Owns all queries on PaperVersion: a paper as it was, kept when an import replaced it or an earlier version was
 * restored, so replacing never loses text.
 */

/** What replacing a stored paper by `next` changes, said briefly: "title “A” → “B”; 178 → 3 paragraphs; from TEI". */
function describeReplacement(
  current: { title: string | null; source: string; format: string; doi: string | null },
  paragraphs: number,
  textChanged: boolean,
  next: ParsedPaper,
): string {
  const quote = (t: string | null) => (t ? `“${t.length > 80 ? `${t.slice(0, 79)}…` : t}”` : 'none');
  const parts: string[] = [];
  if ((current.title ?? '') !== (next.title ?? '')) parts.push(`title ${quote(current.title)} → ${quote(next.title)}`);
  if (textChanged) parts.push(`text replaced, ${paragraphs} → ${next.paragraphs.length} paragraphs`);
  if (current.source !== next.source || current.format !== next.format)
    parts.push(`from ${current.source} (${current.format}) to ${next.source} (${next.format})`);
  if (parts.length === 0) parts.push('metadata changed');
  return `${current.doi ? `doi:${current.doi}` : quote(current.title)}: ${parts.join('; ')}`;
}

/** Stores the paper as it is now as an earlier version, before `next` replaces it; returns what changes. */
export async function keepVersion(tx: Prisma.TransactionClient, paperId: string, next: ParsedPaper, replacedBy: string | null): Promise<string> {
  const current = await tx.paper.findUniqueOrThrow({ where: { id: paperId } });
  const paragraphs = await tx.paragraph.findMany({
    where: { paperId },
    orderBy: { ordinal: 'asc' },
    select: { section: true, kind: true, page: true, externalId: true, text: true },
  });
  const summary = describeReplacement(current, paragraphs.length, current.contentHash !== paperContentHash(next), next);
  await tx.paperVersion.create({
    data: {
      paperId,
      replacedBy,
      source: current.source,
      format: current.format,
      title: current.title,
      doi: current.doi,
      metadata: {
        authors: current.authors,
        journal: current.journal,
        year: current.year,
        license: current.license,
        domain: current.domain,
        abstract: current.abstract,
        sourceId: current.sourceId,
        meta: current.meta,
        contentHash: current.contentHash,
        fingerprint: current.fingerprint,
      } as Prisma.InputJsonValue,
      paragraphs: paragraphs as unknown as Prisma.InputJsonValue,
      paragraphCount: paragraphs.length,
      summary,
    },
  });
  return summary;
}

export interface PaperVersionView {
  id: string;
  replacedAt: Date;
  replacedBy: string | null;
  source: string;
  format: string;
  title: string | null;
  paragraphCount: number;
  summary: string;
  paragraphs: { section: string | null; kind: string; text: string }[];
}

/** A paper's earlier versions, newest first, with their text. */
export async function paperVersions(prisma: PrismaClient, paperId: string): Promise<PaperVersionView[]> {
  const rows = await prisma.paperVersion.findMany({ where: { paperId }, orderBy: { replacedAt: 'desc' } });
  return rows.map((r) => ({
    id: r.id,
    replacedAt: r.replacedAt,
    replacedBy: r.replacedBy,
    source: r.source,
    format: r.format,
    title: r.title,
    paragraphCount: r.paragraphCount,
    summary: r.summary,
    paragraphs: r.paragraphs as unknown as PaperVersionView['paragraphs'],
  }));
}

/**
 * Makes an earlier version the paper's text and metadata again; the text it replaces is kept as a version in turn,
 * so restoring loses nothing either. The paper's structure and graph are redone by the next structuring run.
 */
export async function restorePaperVersion(prisma: PrismaClient, versionId: string): Promise<{ paperId: string; title: string | null }> {
  return prisma.$transaction(async (tx) => {
    const v = await tx.paperVersion.findUniqueOrThrow({ where: { id: versionId } });
    const m = v.metadata as Record<string, unknown>;
    const paragraphs = v.paragraphs as unknown as ParsedPaper['paragraphs'];
    const restored: ParsedPaper = {
      doi: v.doi,
      title: v.title,
      authors: (m.authors as string[]) ?? [],
      journal: (m.journal as string | null) ?? null,
      year: (m.year as number | null) ?? null,
      license: (m.license as string | null) ?? null,
      source: v.source,
      sourceId: (m.sourceId as string | null) ?? null,
      domain: (m.domain as string | null) ?? null,
      abstract: (m.abstract as string | null) ?? null,
      format: v.format as ParsedPaper['format'],
      paragraphs,
      meta: (m.meta as Record<string, unknown> | null) ?? undefined,
    };
    await keepVersion(tx, v.paperId, restored, null);
    await tx.paper.update({
      where: { id: v.paperId },
      data: {
        title: restored.title,
        authors: restored.authors,
        journal: restored.journal,
        year: restored.year,
        license: restored.license,
        source: restored.source,
        sourceId: restored.sourceId,
        domain: restored.domain,
        abstract: restored.abstract,
        format: restored.format,
        contentHash: (m.contentHash as string) ?? paperContentHash(restored),
        fingerprint: (m.fingerprint as string) ?? paperFingerprint(restored),
        meta: (restored.meta ?? Prisma.JsonNull) as Prisma.InputJsonValue,
      },
    });
    await tx.paragraph.deleteMany({ where: { paperId: v.paperId } });
    await insertParagraphs(tx, v.paperId, restored);
    await tx.paperVersion.delete({ where: { id: versionId } });
    return { paperId: v.paperId, title: v.title };
  });
}
