import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { AppError } from '../common/errors.ts';
import { processRunning } from '../common/process-running.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import {
  activeJobs,
  type ClaimedJob,
  claimJob,
  countQueuedJobs,
  endJob,
  enqueueJob,
  getJob,
  type JobRow,
  renewJob,
  requeueJobsOf,
  runningOwners,
  SHARD_KINDS,
  saveJobProgress,
} from '../db/jobs.ts';
import { processObject } from '../common/process-registry.ts';

/**
 * The job queue every app process shares, kept in the database (table Job, lib/db/jobs.ts): imports, downloads,
 * evaluations and campaign work run after the request that asked for them returns, one at a time per process, in
 * the order asked. Any process with a worker may run any queued job (two app processes on one PostgreSQL share the
 * queue; `SKIP LOCKED` keeps one job from running twice); while it runs, its process renews a heartbeat, and when the
 * heartbeat goes stale (the process died) another process claims the job again. A stop asks the running job to end
 * its current step and puts it back in the queue for the next process to continue.
 *
 * A job is data, not a closure: a kind with a handler (`defineJob`, one per module that queues work) and a JSON
 * payload the handler can run again anywhere. `ctx.attempt > 1` tells a handler that an earlier run was cut short.
 */
export interface JobContext<P> {
  db: Database;
  cfg: AssayConfig;
  /** The job's id (its subject: an import run, an evaluation run, a campaign). */
  id: string;
  attempt: number;
  signal: AbortSignal;
  /** Stores the job's progress (read back by `jobProgress`); writes are spaced a second apart, the last one kept. */
  report: (progress: P) => void;
}

export interface JobType<I, P = unknown> {
  kind: string;
  run: (ctx: JobContext<P>, input: I) => Promise<unknown>;
}

export const defineJob = <I, P = unknown>(kind: string, run: JobType<I, P>['run']): JobType<I, P> => ({ kind, run });

/** Jobs that may wait; the next is refused. */
export const MAX_QUEUED = 20;

/** What the queue panel shows of a job. */
export interface BackgroundJob {
  id: string;
  kind: string;
  label: string;
  state: 'running' | 'queued';
  since: string;
  /** The process running it, and whether that is the process answering. */
  owner: string | null;
  here: boolean;
  attempts: number;
  /** A slice of a background stage the app queued for itself (runs after every job a user asked for). */
  shard: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: a worker runs jobs of every input and progress type
export type AnyJob = JobType<any, any>;

interface Worker {
  db: Database;
  cfg: AssayConfig;
  types: Map<string, AnyJob>;
  /** Polling (the app's server: it also takes other processes' and dead processes' jobs) or until the queue is empty. */
  polling: boolean;
  looping: boolean;
  stopped: boolean;
  wake: (() => void) | null;
  running: { id: string; controller: AbortController; stopping: boolean } | null;
}

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    jobOwner: string;
    jobWorkers: Map<Database, Worker>;
  }
}

// This process's name in the Job table: a process object, so every Next.js module instance uses the same one.
export const processOwner = (): string => processObject('jobOwner', () => `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`);
const workers = () => processObject('jobWorkers', () => new Map());

function workerFor(db: Database, cfg: AssayConfig): Worker {
  let w = workers().get(db);
  if (!w || w.stopped) {
    w = { db, cfg, types: new Map(), polling: false, looping: false, stopped: false, wake: null, running: null };
    workers().set(db, w);
  }
  return w;
}

/**
 * Queues `type`'s job under `id` (refused with a 503 AppError when MAX_QUEUED jobs wait, before `create` runs), after
 * `create` has made what the job is followed by (a run row) and returned its id. A job already queued or running
 * under that id is not queued twice. Returns the id.
 */
export async function startJob<I, P>(
  db: Database,
  cfg: AssayConfig,
  type: JobType<I, P>,
  job: { label: string; progress?: P },
  create: () => string | Promise<string>,
  input: (id: string) => I,
): Promise<string> {
  if ((await countQueuedJobs(db)) >= MAX_QUEUED)
    throw new AppError('unavailable', `${MAX_QUEUED} jobs are already waiting; try again when some have finished (the queue is shown on /import)`);
  const id = await create();
  await enqueueJob(db, { id, kind: type.kind, label: job.label, payload: input(id), progress: job.progress });
  const w = workerFor(db, cfg);
  w.types.set(type.kind, type as AnyJob);
  kick(w);
  return id;
}

/**
 * Queues the shards of a background stage (kinds in SHARD_KINDS: not refused by MAX_QUEUED, run after the jobs users
 * asked for), each once under its id, and wakes this process's worker. Returns how many were queued now.
 */
export async function queueShardJobs<I, P>(db: Database, type: JobType<I, P>, jobs: { id: string; label: string; input: I }[]): Promise<number> {
  let queued = 0;
  for (const j of jobs) if (await enqueueJob(db, { id: j.id, kind: type.kind, label: j.label, payload: j.input })) queued++;
  const w = workers().get(db);
  if (w && !w.stopped) {
    w.types.set(type.kind, type as AnyJob);
    kick(w);
  }
  return queued;
}

/** Whether this process's worker looks for jobs of `kind` in the queue (the app's server, `npm run worker`). */
export function takesJobs(db: Database, kind: string): boolean {
  const w = workers().get(db);
  return !!w && w.polling && !w.stopped && w.types.has(kind);
}

/**
 * The app server's worker: runs the queue's jobs of `types` for as long as the process lives, looking for new ones
 * every `cfg.jobs.pollSeconds` (jobs other processes queued, and those whose process died). Running jobs of this
 * machine's dead processes go back to the queue at once; on PGlite (one process) every running job is such a job.
 */
export async function startJobWorker(db: Database, cfg: AssayConfig, types: AnyJob[]): Promise<void> {
  const w = workerFor(db, cfg);
  for (const t of types) w.types.set(t.kind, t);
  w.polling = true;
  const owners = await runningOwners(db);
  const dead = db.kind === 'pglite' ? owners : owners.filter(deadOnThisMachine);
  const n = await requeueJobsOf(db, dead);
  if (n) console.log(`[assay] ${n} job(s) a stopped process was running are queued again`);
  kick(w);
}

function deadOnThisMachine(owner: string): boolean {
  const [host, pid] = owner.split(':');
  if (host !== os.hostname() || !pid || Number(pid) === process.pid) return false;
  return !processRunning(Number(pid));
}

function kick(w: Worker) {
  if (w.wake) w.wake();
  else if (!w.looping) void loop(w);
}

async function loop(w: Worker) {
  w.looping = true;
  try {
    while (!w.stopped) {
      let job = null;
      try {
        job = await claimJob(w.db, processOwner(), [...w.types.keys()], w.cfg.jobs.staleSeconds);
      } catch (error) {
        if (!w.polling) throw error;
        console.error(`[assay] the job queue could not be read (${(error as Error).message}); trying again`);
      }
      if (job) await runClaimed(w, job);
      else if (!w.polling) break;
      else
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => done(), w.cfg.jobs.pollSeconds * 1000);
          timer.unref?.();
          const done = () => {
            clearTimeout(timer);
            w.wake = null;
            resolve();
          };
          w.wake = done;
        });
    }
  } catch (error) {
    console.error(`[assay] the job queue stopped: ${(error as Error).message}`);
  } finally {
    w.looping = false;
  }
}

async function runClaimed(w: Worker, job: ClaimedJob) {
  const controller = new AbortController();
  const running = { id: job.id, controller, stopping: false };
  w.running = running;
  await runJobHere(w.db, w.cfg, w.types.get(job.kind), job, controller, () => running.stopping);
  w.running = null;
}

/**
 * Runs a job this process has claimed, under its heartbeat, and closes it: done, failed (with why), or back in the
 * queue when `stopping()` says the stop was this process's (its next owner continues it). The worker's loop runs
 * its jobs with it, and a stage's coordinator the shards it takes itself (lib/queue/stage-shards.ts).
 */
export async function runJobHere(
  db: Database,
  cfg: AssayConfig,
  type: AnyJob | undefined,
  job: ClaimedJob,
  controller: AbortController,
  stopping: () => boolean,
): Promise<'done' | 'failed' | 'queued'> {
  const owner = processOwner();
  // Progress: at most one write a second, the last report always written.
  let pending: unknown;
  let hasPending = false;
  let lastWrite = 0;
  let writing = Promise.resolve();
  const flush = () => {
    if (!hasPending) return writing;
    const p = pending;
    hasPending = false;
    lastWrite = Date.now();
    writing = writing.then(() => saveJobProgress(db, job.id, owner, p).catch(() => {}));
    return writing;
  };
  let flushTimer: NodeJS.Timeout | null = null;
  const report = (p: unknown) => {
    pending = p;
    hasPending = true;
    if (Date.now() - lastWrite >= 1000) void flush();
    else
      flushTimer ??= setTimeout(
        () => {
          flushTimer = null;
          void flush();
        },
        1000 - (Date.now() - lastWrite),
      );
  };
  // The heartbeat; a job another process has taken over (this one looked dead) is stopped here.
  const beat = setInterval(
    () =>
      void renewJob(db, job.id, owner).then(
        (mine) => mine || controller.abort(new Error('another process took this job over')),
        () => {},
      ),
    Math.max(500, (cfg.jobs.staleSeconds * 1000) / 4),
  );
  beat.unref?.();
  let end: Parameters<typeof endJob>[3];
  try {
    if (!type) throw new Error(`this process cannot run ${job.kind} jobs`);
    await type.run({ db, cfg, id: job.id, attempt: job.attempts, signal: controller.signal, report }, job.payload);
    end = stopping() ? { state: 'queued' } : { state: 'done' };
  } catch (error) {
    console.error(`[assay] background ${job.kind} ${job.id} failed:`, error);
    end = stopping() ? { state: 'queued' } : { state: 'failed', message: (error as Error).message };
  } finally {
    clearInterval(beat);
    if (flushTimer) clearTimeout(flushTimer);
  }
  await flush();
  await endJob(db, job.id, owner, end).catch((error) => console.error(`[assay] job ${job.id} could not be closed: ${(error as Error).message}`));
  return end.state;
}

/** The progress the job `id` last reported while it is queued or running; null once it has finished. */
export async function jobProgress<P>(db: Database, id: string): Promise<P | null> {
  const job = await getJob(db, id);
  return job && (job.state === 'queued' || job.state === 'running') ? ((job.progress ?? null) as P | null) : null;
}

/** The jobs running (in any process) and those waiting, in the order they run. */
export async function backgroundJobs(db: Database): Promise<BackgroundJob[]> {
  const me = processOwner();
  return (await activeJobs(db)).map((j: JobRow) => ({
    id: j.id,
    kind: j.kind,
    label: j.label,
    state: j.state === 'running' ? 'running' : 'queued',
    since: (j.state === 'running' ? (j.startedAt ?? j.createdAt) : j.createdAt).toISOString(),
    owner: j.owner,
    here: j.owner === me,
    attempts: j.attempts,
    shard: SHARD_KINDS.includes(j.kind),
  }));
}

/** Shutdown: every worker of this process stops taking jobs, and its running job is asked to stop and goes back to the queue. */
export function stopAllBackgroundWork() {
  for (const w of workers().values()) {
    w.stopped = true;
    w.wake?.();
    if (w.running) {
      w.running.stopping = true;
      w.running.controller.abort(new Error('the server is stopping'));
    }
  }
}

/** Jobs this process is running now. */
export function activeBackgroundWork(): number {
  return [...workers().values()].filter((w) => w.running).length;
}
