import type { PrismaClient } from './generated/client.ts';

/** Owns all queries on IngestRun and IngestError. */

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'interrupted';
export type RunTrigger = 'cli' | 'upload' | 'startup' | 'fetch';

export interface RunCounters {
  filesTotal: number;
  filesDone: number;
  currentFile: string | null;
  papersAdded: number;
  papersUpdated: number;
  papersUnchanged: number;
  paragraphs: number;
  recordsAdded: number;
  recordsUnchanged: number;
  errorCount: number;
}

export interface IngestErrorEntry {
  file: string;
  location: string | null;
  reason: string;
}

export async function createRun(prisma: PrismaClient, trigger: RunTrigger, inputs: string[], status: RunStatus = 'running') {
  return prisma.ingestRun.create({ data: { trigger, inputs, status } });
}

export async function updateRunProgress(prisma: PrismaClient, id: string, counters: Partial<RunCounters> & { status?: RunStatus }) {
  await prisma.ingestRun.update({ where: { id }, data: { ...counters, heartbeatAt: new Date() } });
}

export async function addRunErrors(prisma: PrismaClient, runId: string, errors: IngestErrorEntry[]) {
  if (errors.length) await prisma.ingestError.createMany({ data: errors.map((e) => ({ runId, ...e })) });
}

export async function finishRun(
  prisma: PrismaClient,
  id: string,
  status: RunStatus,
  counters: RunCounters,
  timings: Record<string, number>,
  message: string | null,
) {
  return prisma.ingestRun.update({
    where: { id },
    data: { ...counters, status, timings, message, finishedAt: new Date(), heartbeatAt: new Date(), currentFile: null },
  });
}

export async function getRun(prisma: PrismaClient, id: string, errorLimit = 200) {
  return prisma.ingestRun.findUnique({
    where: { id },
    include: { errors: { orderBy: [{ at: 'asc' }, { id: 'asc' }], take: errorLimit } },
  });
}

export async function listRuns(prisma: PrismaClient, take = 20) {
  return prisma.ingestRun.findMany({ orderBy: { startedAt: 'desc' }, take });
}

/**
 * Runs still marked running whose process is gone (no heartbeat for `staleMs`) are marked interrupted; on the
 * embedded database, which only one process can open, every running run at start is such a run.
 */
export async function markAbandonedRuns(prisma: PrismaClient, staleMs: number) {
  const res = await prisma.ingestRun.updateMany({
    where: { status: { in: ['running', 'queued'] }, heartbeatAt: { lt: new Date(Date.now() - staleMs) } },
    data: { status: 'interrupted', message: 'the process running this import stopped before it finished; re-run it to complete (nothing is duplicated)', finishedAt: new Date() },
  });
  return res.count;
}
