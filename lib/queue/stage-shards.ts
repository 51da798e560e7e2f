import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { claimJob, type JobOutcome, jobOutcomes } from '../db/jobs.ts';
import { paperSizes } from '../db/structure.ts';
import { type JobType, processOwner, queueShardJobs, runJobHere } from './queue.ts';

/**
 * A background stage cut into shards that every app process may run: the stage's coordinator (the import job, in
 * whichever process runs it) queues the shards as jobs of the shared queue, then takes them itself one by one,
 * exactly as any worker would (the same claim, heartbeat and close), while every `npm run worker` on the same
 * PostgreSQL takes others. Once no shard of the set is left to take, it waits for those other processes hold, and
 * takes over any whose process died (a stale heartbeat). A lone process — the server with no worker beside it, the
 * CLI — thus runs every shard itself and never waits on a worker that is busy with this very stage.
 */
export interface StageShard<I> {
  /**
   * Unique to the stage's run: a resumed run finds the shards still queued or running under the same ids (those that
   * had ended run again, and quickly, since each stage skips the work it finds done).
   */
  id: string;
  label: string;
  input: I;
}

export interface StageOutcome<P> {
  /** The shards that ended done, with what each last reported (its result), in the plan's order. */
  done: { id: string; progress: P | null; here: boolean }[];
  failed: { id: string; message: string }[];
  /** The coordinator was stopped: shards it was running went back to the queue, unfinished ones stay there. */
  interrupted: boolean;
}

/** Consecutive ranges of `items` (in their order) of about `perShard` in size each; an item is never split, and one of size 0 is left out. */
export function planShards(items: { id: string; size: number }[], perShard: number): string[][] {
  const shards: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const item of items) {
    if (item.size === 0) continue;
    current.push(item.id);
    size += item.size;
    if (size >= perShard) {
      shards.push(current);
      current = [];
      size = 0;
    }
  }
  if (current.length) shards.push(current);
  return shards;
}

/**
 * Queues `shards` of `type` and runs them to the end as described above; `onProgress` is told how many have ended
 * and how many of those ran in another process. Resolves when every shard has ended or `signal` stops the stage.
 */
export async function runStageShards<I, P>(
  db: Database,
  cfg: AssayConfig,
  type: JobType<I, P>,
  shards: StageShard<I>[],
  opts: { signal?: AbortSignal; onProgress?: (p: { ended: number; total: number; elsewhere: number }) => Promise<void> | void } = {},
): Promise<StageOutcome<P>> {
  await queueShardJobs(db, type, shards);
  const ids = shards.map((s) => s.id);
  const here = new Set<string>();
  const pollMs = Math.min(1000, cfg.jobs.pollSeconds * 1000);
  let byId = new Map<string, JobOutcome>();
  // A shard row gone (nothing deletes them today) counts as ended: nothing would ever run it.
  const ended = (id: string) => {
    const o = byId.get(id);
    return !o || o.state === 'done' || o.state === 'failed';
  };
  for (;;) {
    if (opts.signal?.aborted) break;
    const job = await claimJob(db, processOwner(), [type.kind], cfg.jobs.staleSeconds, ids);
    if (job) {
      const controller = new AbortController();
      const stop = () => controller.abort(opts.signal?.reason);
      opts.signal?.addEventListener('abort', stop, { once: true });
      try {
        const end = await runJobHere(db, cfg, type, job, controller, () => !!opts.signal?.aborted);
        if (end !== 'queued') here.add(job.id);
      } finally {
        opts.signal?.removeEventListener('abort', stop);
      }
    }
    byId = new Map((await jobOutcomes(db, ids)).map((o) => [o.id, o]));
    const n = ids.filter(ended).length;
    await opts.onProgress?.({ ended: n, total: ids.length, elsewhere: ids.filter((id) => ended(id) && !here.has(id)).length });
    if (n === ids.length) break;
    // Every shard left is another process's: wait for them (a dead one's is claimable once its heartbeat is stale).
    if (!job) await abortableSleep(pollMs, opts.signal);
  }
  // A shard another process failed (one configured otherwise refuses it, one may crash on it) is run here once more,
  // directly: the stage is this process's, and a part left undone would wait for the next import.
  const retried = new Map<string, { progress: P | null } | { message: string }>();
  if (!opts.signal?.aborted)
    for (const shard of shards) {
      const o = byId.get(shard.id);
      if (o?.state !== 'failed' || here.has(shard.id)) continue;
      let progress: P | null = null;
      const signal = opts.signal ?? new AbortController().signal;
      try {
        await type.run({ db, cfg, id: shard.id, attempt: o.attempts + 1, signal, report: (p) => (progress = p) }, shard.input);
        retried.set(shard.id, { progress });
      } catch (error) {
        retried.set(shard.id, { message: `${o.message ?? 'failed'}; run again here: ${(error as Error).message}` });
      }
    }
  return {
    done: ids.flatMap((id) => {
      const again = retried.get(id);
      if (again && 'progress' in again) return [{ id, progress: again.progress, here: true }];
      const o = byId.get(id);
      return o?.state === 'done' ? [{ id, progress: (o.progress ?? null) as P | null, here: here.has(id) }] : [];
    }),
    failed: ids.flatMap((id) => {
      const o = byId.get(id);
      const again = retried.get(id);
      if (again) return 'message' in again ? [{ id, message: again.message }] : [];
      return o?.state === 'failed' ? [{ id, message: o.message ?? 'failed' }] : [];
    }),
    interrupted: !!opts.signal?.aborted,
  };
}

/**
 * A stage over the whole corpus as shards of consecutive papers (every paper counts: its paragraphs, and one for what
 * the stage makes of the paper itself), named `<prefix>:<runId>:<n>`, run as `runStageShards` runs them; `words`
 * say what the stage does in the labels and progress lines ("structuring paragraphs: 3 of 18 parts done").
 */
export async function runPaperShards<I, P>(
  db: Database,
  cfg: AssayConfig,
  type: JobType<I, P>,
  opts: {
    prefix: string;
    runId: string;
    words: string;
    perShard: number;
    input: (papers: string[]) => I;
    signal?: AbortSignal;
    onProgress?: (line: string) => Promise<void> | void;
  },
): Promise<StageOutcome<P> & { shards: number }> {
  const plan = planShards(
    (await paperSizes(db)).map((p) => ({ id: p.id, size: p.paragraphs + 1 })),
    opts.perShard,
  );
  const outcome = await runStageShards(
    db,
    cfg,
    type,
    plan.map((papers, i) => ({
      id: `${opts.prefix}:${opts.runId}:${i + 1}`,
      label: `${opts.words}, part ${i + 1} of ${plan.length}`,
      input: opts.input(papers),
    })),
    {
      signal: opts.signal,
      onProgress: (p) => opts.onProgress?.(`${opts.words}: ${p.ended} of ${p.total} parts done${p.elsewhere ? ` (${p.elsewhere} by other workers)` : ''}`),
    },
  );
  return { ...outcome, shards: plan.length };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
