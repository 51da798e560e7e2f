import type { TraceStep } from '../common/trace.ts';
import type { Database } from './database.ts';

/** The PaperSearch table: each "look for papers" search, its candidates, the import started from it and its trace. */
export type PaperSearchStatus = 'found' | 'failed' | 'importing' | 'imported';

export interface StoredPaperSearch<C = unknown> {
  id: string;
  question: string;
  answerId: string | null;
  query: string;
  status: PaperSearchStatus;
  candidates: C[];
  trace: TraceStep[];
  importRunId: string | null;
  imported: string[];
  askedAgainId: string | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type Row = Awaited<ReturnType<Database['prisma']['paperSearch']['findFirstOrThrow']>>;
const stored = <C>(r: Row): StoredPaperSearch<C> => ({
  ...r,
  status: r.status as PaperSearchStatus,
  candidates: r.candidates as C[],
  trace: r.trace as unknown as TraceStep[],
});

export async function createPaperSearch<C>(
  db: Database,
  s: { question: string; answerId: string | null; query: string; status: PaperSearchStatus; candidates: C[]; trace: TraceStep[]; createdBy: string | null },
): Promise<string> {
  const row = await db.prisma.paperSearch.create({
    data: { ...s, candidates: s.candidates as object[], trace: s.trace as unknown as object[], imported: [] },
    select: { id: true },
  });
  return row.id;
}

export async function getPaperSearch<C>(db: Database, id: string): Promise<StoredPaperSearch<C> | null> {
  const r = await db.prisma.paperSearch.findUnique({ where: { id } });
  return r ? stored<C>(r) : null;
}

/** The searches started from an answer, newest first. */
export async function searchesOfAnswer(db: Database, answerId: string): Promise<{ id: string; status: string; createdAt: Date }[]> {
  return db.prisma.paperSearch.findMany({ where: { answerId }, orderBy: { createdAt: 'desc' }, select: { id: true, status: true, createdAt: true }, take: 5 });
}

/** Adds steps to a search's trace (appended in the database: two requests never lose a step) and changes what else is given. */
export async function advancePaperSearch(
  db: Database,
  id: string,
  steps: TraceStep[],
  change: Partial<Pick<StoredPaperSearch, 'status' | 'importRunId' | 'imported' | 'askedAgainId'>> = {},
): Promise<void> {
  await db.prisma.$executeRawUnsafe(`UPDATE "PaperSearch" SET "trace" = "trace" || $2::jsonb, "updatedAt" = now() WHERE "id" = $1`, id, JSON.stringify(steps));
  if (Object.keys(change).length) await db.prisma.paperSearch.update({ where: { id }, data: change });
}

/** Ends a search's import with `step` and `status`, once: false when another request ended it already. */
export async function settlePaperSearch(db: Database, id: string, step: TraceStep, status: PaperSearchStatus): Promise<boolean> {
  const n = await db.prisma.$executeRawUnsafe(
    `UPDATE "PaperSearch" SET "trace" = "trace" || $2::jsonb, "status" = $3, "updatedAt" = now() WHERE "id" = $1 AND "status" = 'importing'`,
    id,
    JSON.stringify([step]),
    status,
  );
  return n > 0;
}
