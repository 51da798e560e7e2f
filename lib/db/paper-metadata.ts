import type { Prisma } from './generated/client.ts';
import type { Database } from './database.ts';

/**
 * The PaperMetadata table: what Crossref and OpenAlex say of each paper with a DOI (lib/scholarly/metadata.ts). A
 * failed fetch records its reason and keeps the data an earlier fetch stored.
 */
export interface StoredMetadata {
  paperId: string;
  doi: string;
  status: 'ok' | 'not-found' | 'error';
  data: unknown;
  message: string | null;
  fetchedAt: Date;
}

const needing = (staleBefore: Date) => ({
  doi: { not: null },
  OR: [{ metadata: null }, { metadata: { status: 'error' } }, { metadata: { fetchedAt: { lt: staleBefore } } }],
});

/** Papers with a DOI whose metadata is missing, failed, or older than `staleBefore`, by id after `after`. */
export async function papersNeedingMetadata(
  db: Database,
  staleBefore: Date,
  limit: number,
  after: string | null = null,
): Promise<{ id: string; doi: string }[]> {
  const rows = await db.prisma.paper.findMany({
    where: { ...needing(staleBefore), ...(after ? { id: { gt: after } } : {}) },
    select: { id: true, doi: true },
    orderBy: { id: 'asc' },
    take: limit,
  });
  return rows.map((r) => ({ id: r.id, doi: r.doi! }));
}

export async function countPapersNeedingMetadata(db: Database, staleBefore: Date): Promise<number> {
  return db.prisma.paper.count({ where: needing(staleBefore) });
}

/** Stores a fetch's outcome; an error keeps the data stored before (nothing is lost to a failed call). */
export async function saveMetadata(
  db: Database,
  paperId: string,
  doi: string,
  outcome: { status: StoredMetadata['status']; data?: unknown; message?: string | null },
) {
  const data = outcome.data === undefined ? undefined : (outcome.data as Prisma.InputJsonValue);
  await db.prisma.paperMetadata.upsert({
    where: { paperId },
    create: { paperId, doi, status: outcome.status, data, message: outcome.message ?? null },
    update: { doi, status: outcome.status, ...(outcome.status === 'error' ? {} : { data }), message: outcome.message ?? null, fetchedAt: new Date() },
  });
}

export async function metadataOf(db: Database, paperId: string): Promise<StoredMetadata | null> {
  return (await db.prisma.paperMetadata.findUnique({ where: { paperId } })) as StoredMetadata | null;
}

/** The stored metadata of these papers, by paper id (for flagging cited papers). */
export async function metadataOfPapers(db: Database, paperIds: string[]): Promise<Map<string, StoredMetadata>> {
  if (paperIds.length === 0) return new Map();
  const rows = (await db.prisma.paperMetadata.findMany({ where: { paperId: { in: paperIds } } })) as StoredMetadata[];
  return new Map(rows.map((r) => [r.paperId, r]));
}

export async function metadataCounts(db: Database): Promise<Record<string, number>> {
  const rows = await db.prisma.paperMetadata.groupBy({ by: ['status'], _count: { _all: true } });
  return Object.fromEntries(rows.map((r) => [r.status, r._count._all]));
}
