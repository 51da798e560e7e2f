import { AppError } from './errors.ts';

/**
 * The server's job queue: work that runs after a request returns (imports, downloads, evaluations) waits here and
 * runs one job at a time, in the order asked, each under an abort signal that shutdown triggers (a stop lets the
 * running job end its current step and store where it is; queued jobs never start). The queue is visible
 * (`backgroundJobs`) and bounded: past MAX_QUEUED waiting jobs a new one is refused with a clear message, so a
 * burst of requests cannot pile up unbounded work. Kept on globalThis so that Next.js dev reloads see the same queue.
 */
export type JobKind = 'import' | 'download' | 'evaluation' | 'campaign';

export interface BackgroundJob {
  id: string;
  kind: JobKind;
  label: string;
  state: 'running' | 'queued';
  since: string;
}

interface Entry extends BackgroundJob {
  controller: AbortController;
  work: (signal: AbortSignal) => Promise<unknown>;
  /** What the job last reported of its progress (shape chosen by its kind), until it leaves the queue. */
  progress: unknown;
}

/** Jobs that may wait behind the running one. */
export const MAX_QUEUED = 20;

const store = globalThis as unknown as { __assayQueue?: { jobs: Entry[]; draining: boolean } };
const queue = () => (store.__assayQueue ??= { jobs: [], draining: false });

async function drain() {
  const q = queue();
  if (q.draining) return;
  q.draining = true;
  try {
    for (let job = q.jobs[0]; job; job = q.jobs[0]) {
      if (!job.controller.signal.aborted) {
        job.state = 'running';
        job.since = new Date().toISOString();
        try {
          await job.work(job.controller.signal);
        } catch (error) {
          console.error(`[assay] background ${job.kind} ${job.id} failed:`, error);
        }
      }
      q.jobs.shift();
    }
  } finally {
    q.draining = false;
  }
}

/** What a queued job does: its id, its abort signal, and a way to report progress (read back with `jobProgress`). */
export type JobWork<P> = (id: string, signal: AbortSignal, report: (progress: P) => void) => Promise<unknown>;

/**
 * The one way to start a job. Refuses with a 503 AppError when MAX_QUEUED jobs already wait, before anything is
 * created; then `create` makes whatever the job is followed by (a run row) and returns its id, and `work` is queued
 * under that id: it starts when every job asked before it has finished. Returns the id.
 */
export async function startJob<P = unknown>(
  job: { kind: JobKind; label: string; progress?: P },
  create: () => string | Promise<string>,
  work: JobWork<P>,
): Promise<string> {
  if (queue().jobs.length > MAX_QUEUED)
    throw new AppError('unavailable', `${MAX_QUEUED} jobs are already waiting; try again when some have finished (the queue is shown on /import)`);
  const id = await create();
  const entry: Entry = {
    id,
    kind: job.kind,
    label: job.label,
    state: 'queued',
    since: new Date().toISOString(),
    controller: new AbortController(),
    progress: job.progress ?? null,
    work: (signal) =>
      work(id, signal, (p) => {
        entry.progress = p;
      }),
  };
  queue().jobs.push(entry);
  void drain();
  return id;
}

/** The progress the job `id` last reported while it is queued or running; null once it has left the queue. */
export function jobProgress<P>(id: string): P | null {
  return (queue().jobs.find((j) => j.id === id)?.progress as P | undefined) ?? null;
}

/** The running job and those waiting, in the order they run. */
export function backgroundJobs(): BackgroundJob[] {
  return queue().jobs.map(({ id, kind, label, state, since }) => ({ id, kind, label, state, since }));
}

export function stopAllBackgroundWork() {
  for (const job of queue().jobs) job.controller.abort();
}

export function activeBackgroundWork(): number {
  return queue().jobs.length;
}
