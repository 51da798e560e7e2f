import type { PrismaClient } from './generated/client.ts';

/** Owns all queries on IngestRun and IngestError. */

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'interrupted';
/** restore: an earlier version of a paper was restored (the job only restructures and re-extracts it). */
export type RunTrigger = 'cli' | 'upload' | 'startup' | 'fetch' | 'restore';

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

export type StageName = 'import' | 'structure' | 'graph' | 'records' | 'index';
export type StageStatus = 'pending' | 'running' | 'done' | 'skipped' | 'failed';

/** One stage of an import job as stored on its run. */
export interface StageState {
  name: StageName;
  status: StageStatus;
  seconds?: number;
  message?: string;
}

/** What an import job needs to run again after a stop, stored on its run. */
export interface StoredJobOptions {
  /** The paths read (the run's `inputs` show upload names instead). */
  inputs?: string[];
  displayNames?: [string, string][];
  source?: string;
  maxItemBytes?: number;
  recordBatchSize?: number;
  /** Set by the import stage: whether any attempt added or changed something (the later stages run only then). */
  changed?: boolean;
  /** Set by the import stage: papers that gained imported records (their records are rebuilt by structuring). */
  gainedRecords?: string[];
}

export async function createRun(
  prisma: PrismaClient,
  trigger: RunTrigger,
  inputs: string[],
  status: RunStatus = 'running',
  job: { stages?: StageState[]; options?: StoredJobOptions } = {},
) {
  return prisma.ingestRun.create({ data: { trigger, inputs, status, stages: (job.stages ?? []) as object[], options: (job.options ?? {}) as object } });
}

/** Stores an import job's stages (and options, when given) as they change. */
export async function saveJobState(prisma: PrismaClient, id: string, stages: StageState[], options?: StoredJobOptions) {
  await prisma.ingestRun.update({
    where: { id },
    data: { stages: stages as object[], ...(options ? { options: options as object } : {}), heartbeatAt: new Date() },
  });
}

/** Errors of the run's import stage, before it reads the files again on a resume (they are found again). */
export async function clearRunErrors(prisma: PrismaClient, runId: string) {
  await prisma.ingestError.deleteMany({ where: { runId } });
}

/** Interrupted runs, oldest first, for resuming on start. */
export async function interruptedRuns(prisma: PrismaClient) {
  return prisma.ingestRun.findMany({ where: { status: 'interrupted' }, orderBy: { startedAt: 'asc' } });
}

/**
 * Marks an interrupted run queued again for a resume; false when it is not interrupted (already resumed by
 * someone else, finished, or running), so one run is never resumed twice.
 */
export async function claimForResume(prisma: PrismaClient, id: string): Promise<boolean> {
  const res = await prisma.ingestRun.updateMany({
    where: { id, status: 'interrupted' },
    data: { status: 'queued', attempts: { increment: 1 }, finishedAt: null, message: null, heartbeatAt: new Date() },
  });
  return res.count === 1;
}

/** A run its process left in the middle (the job that takes it over next decides whether it continues). */
export async function markRunInterrupted(prisma: PrismaClient, id: string) {
  await prisma.ingestRun.update({
    where: { id },
    data: { status: 'interrupted', message: 'the process running this import stopped before it finished', finishedAt: new Date() },
  });
}

export async function updateRunProgress(prisma: PrismaClient, id: string, counters: Partial<RunCounters> & { status?: RunStatus }) {
  await prisma.ingestRun.update({ where: { id }, data: { ...counters, heartbeatAt: new Date() } });
}

export async function addRunErrors(prisma: PrismaClient, runId: string, errors: IngestErrorEntry[]) {
  if (errors.length) await prisma.ingestError.createMany({ data: errors.map((e) => ({ runId, ...e })) });
}

/** Errors found after a run finished (downloads that failed): stored, and counted in the run's error count. */
export async function addLateRunErrors(prisma: PrismaClient, runId: string, errors: IngestErrorEntry[]) {
  if (!errors.length) return;
  await addRunErrors(prisma, runId, errors);
  await prisma.ingestRun.update({ where: { id: runId }, data: { errorCount: { increment: errors.length } } });
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

/** Import runs not yet ended (queued or running), oldest first. */
export async function activeRuns(prisma: PrismaClient) {
  return prisma.ingestRun.findMany({ where: { status: { in: ['queued', 'running'] } }, orderBy: { startedAt: 'asc' } });
}

export async function markAbandonedRuns(prisma: PrismaClient, staleMs: number, liveJobIds: string[] = []) {
  const res = await prisma.ingestRun.updateMany({
    where: { status: { in: ['running', 'queued'] }, heartbeatAt: { lt: new Date(Date.now() - staleMs) }, id: { notIn: liveJobIds } },
    data: {
      status: 'interrupted',
      message: 'the process running this import stopped before it finished; resume it to complete (nothing is duplicated)',
      finishedAt: new Date(),
    },
  });
  return res.count;
}

/** Whether an import run is under way here or in another process: running, with a heartbeat in the last `freshMs`. */
export async function importUnderWay(prisma: PrismaClient, freshMs: number): Promise<boolean> {
  return (await prisma.ingestRun.count({ where: { status: 'running', heartbeatAt: { gte: new Date(Date.now() - freshMs) } } })) > 0;
}
