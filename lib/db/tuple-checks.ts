import type { Database } from './database.ts';

/** The TupleCheck table: what validation found in the tuples of papers "look for papers" imported (lib/graph/validate-tuples.ts). */
export interface TupleCheckRow {
  paperId: string;
  tupleId: string | null;
  verdict: 'rejected' | 'conflict';
  rule: 'unit' | 'impossible' | 'conflict';
  message: string;
  statement: string;
  paragraphId: string | null;
  sentence: string | null;
  conflictsWith: { tupleId: string; paperId: string | null; statement: string }[];
}

/** Replaces the checks of `paperIds` with `rows` (a paper's tuples were made again). */
export async function replaceTupleChecks(db: Database, paperIds: string[], rows: TupleCheckRow[]): Promise<void> {
  if (paperIds.length === 0) return;
  await db.prisma.$transaction([
    db.prisma.tupleCheck.deleteMany({ where: { paperId: { in: paperIds } } }),
    db.prisma.tupleCheck.createMany({ data: rows.map((r) => ({ ...r, conflictsWith: r.conflictsWith })) }),
  ]);
}

export async function tupleChecksOf(db: Database, paperIds: string[]): Promise<TupleCheckRow[]> {
  if (paperIds.length === 0) return [];
  const rows = await db.prisma.tupleCheck.findMany({
    where: { paperId: { in: paperIds } },
    orderBy: [{ paperId: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((r) => ({
    ...r,
    verdict: r.verdict as TupleCheckRow['verdict'],
    rule: r.rule as TupleCheckRow['rule'],
    conflictsWith: r.conflictsWith as TupleCheckRow['conflictsWith'],
  }));
}

/** The conflict flags of stored tuples, by tuple id (the provenance panel marks a flagged tuple). */
export async function conflictFlags(db: Database, tupleIds: string[]): Promise<Map<string, string>> {
  if (tupleIds.length === 0) return new Map();
  const rows = await db.prisma.tupleCheck.findMany({ where: { tupleId: { in: tupleIds }, verdict: 'conflict' }, select: { tupleId: true, message: true } });
  return new Map(rows.map((r) => [r.tupleId!, r.message]));
}
