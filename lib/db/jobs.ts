import type { Database } from './database.ts';
import { Prisma } from './generated/client.ts';

/**
 * The shared job queue's table (model Job). Every statement that decides who runs a job is one SQL statement, so
 * two processes on one PostgreSQL never both take a job: the claim locks the row it picks with `FOR UPDATE SKIP
 * LOCKED` (a row another claim holds is passed over, not waited for) and updates it in the same statement.
 * Timestamps are compared in UTC, the way Prisma stores them.
 */
export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface ClaimedJob {
  id: string;
  kind: string;
  label: string;
  payload: unknown;
  /** 1 on the first claim; more when an earlier run of it was stopped or its process died. */
  attempts: number;
}

export interface JobRow {
  id: string;
  kind: string;
  label: string;
  state: JobState;
  owner: string | null;
  attempts: number;
  progress: unknown;
  message: string | null;
  createdAt: Date;
  startedAt: Date | null;
  heartbeatAt: Date | null;
  finishedAt: Date | null;
}

const NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')`;

/**
 * Kinds of shard jobs: slices of a background stage (embedding, structuring, graph extraction, the records index) that the app queues by the dozen for
 * itself, not for a user. They run after every job a user asked for (an upload queued behind a hundred embedding
 * shards runs first) and do not count toward the queue's limit of waiting jobs.
 */
export const SHARD_KINDS = ['embedding-shard', 'structure-shard', 'graph-shard', 'records-shard'];

/**
 * Queues a job under its subject's id. A job already queued or running under that id is left as it is (asking twice
 * does not run it twice); a finished one is queued again. Returns whether this call queued it.
 */
export async function enqueueJob(db: Database, job: { id: string; kind: string; label: string; payload: unknown; progress?: unknown }): Promise<boolean> {
  const payload = JSON.stringify(job.payload ?? {});
  const progress = job.progress === undefined ? null : JSON.stringify(job.progress);
  const rows = await db.prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO "Job" (id, kind, label, payload, progress, state, attempts, "createdAt")
    VALUES (${job.id}, ${job.kind}, ${job.label}, ${payload}::jsonb, ${progress}::jsonb, 'queued', 0, ${NOW})
    ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind, label = EXCLUDED.label, payload = EXCLUDED.payload,
      progress = EXCLUDED.progress, state = 'queued', owner = NULL, attempts = 0, message = NULL,
      "createdAt" = EXCLUDED."createdAt", "startedAt" = NULL, "heartbeatAt" = NULL, "finishedAt" = NULL
    WHERE "Job".state IN ('done', 'failed')
    RETURNING id`;
  return rows.length === 1;
}

/**
 * Takes the oldest job of one of `kinds` (and, when given, one of `ids`: a stage's coordinator takes its own shards)
 * that is queued, or running under a heartbeat older than `staleSeconds` (its process died), for `owner`; null when
 * there is none.
 */
export async function claimJob(db: Database, owner: string, kinds: string[], staleSeconds: number, ids?: string[]): Promise<ClaimedJob | null> {
  if (kinds.length === 0 || ids?.length === 0) return null;
  const rows = await db.prisma.$queryRaw<ClaimedJob[]>`
    UPDATE "Job" SET state = 'running', owner = ${owner}, attempts = attempts + 1, "startedAt" = ${NOW},
      "heartbeatAt" = ${NOW}, message = NULL
    WHERE id = (
      SELECT id FROM "Job"
      WHERE kind IN (${Prisma.join(kinds)}) ${ids ? Prisma.sql`AND id IN (${Prisma.join(ids)})` : Prisma.empty}
        AND (state = 'queued' OR (state = 'running' AND "heartbeatAt" < ${NOW} - make_interval(secs => ${staleSeconds})))
      ORDER BY (kind IN (${Prisma.join(SHARD_KINDS)})), "createdAt", id
      LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING id, kind, label, payload, attempts`;
  return rows[0] ?? null;
}

/** Renews the owner's heartbeat; false when the job is no longer its own (another process took it over). */
export async function renewJob(db: Database, id: string, owner: string): Promise<boolean> {
  const n = await db.prisma.$executeRaw`UPDATE "Job" SET "heartbeatAt" = ${NOW} WHERE id = ${id} AND owner = ${owner} AND state = 'running'`;
  return n === 1;
}

/** Stores what the job last reported of its progress (while its owner runs it). */
export async function saveJobProgress(db: Database, id: string, owner: string, progress: unknown): Promise<void> {
  await db.prisma.$executeRaw`
    UPDATE "Job" SET progress = ${JSON.stringify(progress ?? null)}::jsonb, "heartbeatAt" = ${NOW}
    WHERE id = ${id} AND owner = ${owner} AND state = 'running'`;
}

/** The owner's run of the job ended: done, failed (with why), or back in the queue for any process (a stop). */
export async function endJob(db: Database, id: string, owner: string, end: { state: 'done' } | { state: 'failed'; message: string } | { state: 'queued' }) {
  const message = end.state === 'failed' ? end.message.slice(0, 1000) : null;
  if (end.state === 'queued')
    await db.prisma.$executeRaw`UPDATE "Job" SET state = 'queued', owner = NULL, "heartbeatAt" = NULL WHERE id = ${id} AND owner = ${owner}`;
  else
    await db.prisma.$executeRaw`
      UPDATE "Job" SET state = ${end.state}, message = ${message}, "finishedAt" = ${NOW}, "heartbeatAt" = ${NOW}
      WHERE id = ${id} AND owner = ${owner}`;
}

/** Running jobs whose owner is one of `owners` go back to the queue (those processes are known to be dead). */
export async function requeueJobsOf(db: Database, owners: string[]): Promise<number> {
  if (owners.length === 0) return 0;
  return db.prisma.$executeRaw`
    UPDATE "Job" SET state = 'queued', owner = NULL, "heartbeatAt" = NULL WHERE state = 'running' AND owner IN (${Prisma.join(owners)})`;
}

/** The owners of running jobs (to find those of dead processes on this machine). */
export async function runningOwners(db: Database): Promise<string[]> {
  const rows = await db.prisma.job.findMany({ where: { state: 'running' }, select: { owner: true }, distinct: ['owner'] });
  return rows.flatMap((r) => (r.owner ? [r.owner] : []));
}

/** Jobs a user asked for that wait (shard jobs are not counted: see SHARD_KINDS). */
export async function countQueuedJobs(db: Database): Promise<number> {
  return db.prisma.job.count({ where: { state: 'queued', kind: { notIn: SHARD_KINDS } } });
}

/** What a stage's coordinator reads of its shards once they have ended. */
export type JobOutcome = Pick<JobRow, 'id' | 'state' | 'owner' | 'attempts' | 'progress' | 'message'>;

/** How each of these jobs that exists ended or stands, with what it last reported (a stage's coordinator sums its shards'). */
export async function jobOutcomes(db: Database, ids: string[]): Promise<JobOutcome[]> {
  const out: JobOutcome[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db.prisma.job.findMany({
      where: { id: { in: ids.slice(i, i + 1000) } },
      select: { id: true, state: true, owner: true, attempts: true, progress: true, message: true },
    });
    out.push(...(rows as JobOutcome[]));
  }
  return out;
}

/** The state of each of these jobs that exists (a shard set's coordinator follows its shards by it). */
export async function jobStates(db: Database, ids: string[]): Promise<Map<string, JobState>> {
  return new Map((await jobOutcomes(db, ids)).map((o) => [o.id, o.state]));
}

/** Whether a job of one of `kinds` runs in any process (its heartbeat newer than `staleSeconds`). */
export async function jobsUnderWay(db: Database, kinds: string[], staleSeconds: number): Promise<boolean> {
  const cutoff = new Date(Date.now() - staleSeconds * 1000);
  return (await db.prisma.job.count({ where: { kind: { in: kinds }, state: 'running', heartbeatAt: { gte: cutoff } } })) > 0;
}

/** Ids of jobs that are queued, or running with a heartbeat newer than `staleSeconds`: their subjects are alive. */
export async function liveJobIds(db: Database, staleSeconds: number): Promise<string[]> {
  const cutoff = new Date(Date.now() - staleSeconds * 1000);
  const rows = await db.prisma.job.findMany({
    where: { OR: [{ state: 'queued' }, { state: 'running', heartbeatAt: { gte: cutoff } }] },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** The queue as the panel shows it: running jobs first, then those waiting in the order they run (shards last). */
export async function activeJobs(db: Database): Promise<JobRow[]> {
  const rows = (await db.prisma.job.findMany({ where: { state: { in: ['queued', 'running'] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })) as JobRow[];
  const queued = rows.filter((r) => r.state === 'queued');
  const shard = (r: JobRow) => SHARD_KINDS.includes(r.kind);
  return [...rows.filter((r) => r.state === 'running'), ...queued.filter((r) => !shard(r)), ...queued.filter(shard)];
}

export async function getJob(db: Database, id: string): Promise<JobRow | null> {
  return (await db.prisma.job.findUnique({ where: { id } })) as JobRow | null;
}
