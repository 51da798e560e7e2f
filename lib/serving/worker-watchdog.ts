import type { Worker } from 'node:worker_threads';
import { overBudget } from '../common/deadline.ts';
import { AppError } from '../common/errors.ts';
import type { RetrievalResult, RetrieveOptions } from '../pipelines/types.ts';

/**
 * The retrieval pool's watch over its workers' questions (retrieval-pool.ts). A worker ends a question past its time
 * itself, at its next step (lib/common/deadline.ts); a question it has not answered `graceMs` after its deadline is
 * answered by the pool with the over-budget error, and the line moves on. The worker is then pinged: a thread that
 * cannot answer within `pingMs` is held by work that cannot check the deadline (a regular expression, a parser), and
 * the worker is stopped and replaced — unless it is building a part of its index made on first use (a records
 * index's build holds its thread for seconds at a time) and has said something within `BUILD_SILENCE_MS`.
 */
export interface WatchdogTiming {
  graceMs: number;
  pingMs: number;
}

/** At most budget + 0.5 s for the asker; 2 s for a worker's thread to show it is free. */
export const WATCHDOG_TIMING: WatchdogTiming = { graceMs: 500, pingMs: 2_000 };
/** A worker building a part of its index is not stopped unless it has said nothing for this long. */
const BUILD_SILENCE_MS = 60_000;

/** A question sent to a worker and not answered yet. */
export interface PendingQuestion {
  resolve: (r: RetrievalResult) => void;
  reject: (e: Error) => void;
  /** Sends it again to another worker (which then answers it): a replaced worker's other questions are not lost. */
  resendTo?: (slot: WatchedSlot) => void;
}

/** What the watchdog reads of a worker (the pool's slot). */
export interface WatchedSlot {
  worker: Worker;
  /** The questions sent to it and not answered yet, by id. */
  pending: Map<number, PendingQuestion>;
  /** Whether it has read its index (a worker replacing a stopped one reads it first). */
  ready: boolean;
  /** Parts of its index it is building now. */
  building: number;
  /** When it last said anything (`Date.now()`). */
  heard: number;
  /** Pings waiting for their pong, by id. */
  pongs: Map<number, () => void>;
  /** Stopped on purpose (held past a question's time): its exit is not a failure of the pool. */
  retired: boolean;
}

export interface WatchdogHooks {
  /** Whether the worker still serves (not replaced, the pool not closed). */
  serving(slot: WatchedSlot): boolean;
  /** Stops the worker and puts a new one on the same index in its place. */
  replace(slot: WatchedSlot): void;
  ping(slot: WatchedSlot, id: number): void;
  nextId(): number;
}

export function workerWatchdog(timing: WatchdogTiming, hooks: WatchdogHooks) {
  /** Whether the worker's thread answers a ping within `pingMs` (a thread held by one piece of work cannot). */
  const answersPing = (slot: WatchedSlot) =>
    new Promise<boolean>((resolve) => {
      const id = hooks.nextId();
      const timer = setTimeout(() => {
        slot.pongs.delete(id);
        resolve(false);
      }, timing.pingMs);
      slot.pongs.set(id, () => {
        clearTimeout(timer);
        slot.pongs.delete(id);
        resolve(true);
      });
      hooks.ping(slot, id);
    });

  const checking = new Set<WatchedSlot>();
  /** After a question was overdue: a worker whose thread is held (not by a part of its index it builds) is replaced. */
  async function checkHeld(slot: WatchedSlot) {
    if (checking.has(slot) || !hooks.serving(slot)) return;
    checking.add(slot);
    try {
      if (await answersPing(slot)) return;
      if (slot.building > 0 && Date.now() - slot.heard < BUILD_SILENCE_MS) {
        setTimeout(() => void checkHeld(slot), timing.pingMs).unref();
        return;
      }
      if (hooks.serving(slot)) hooks.replace(slot);
    } finally {
      checking.delete(slot);
    }
  }

  /** A question its worker has not answered `graceMs` after its deadline: answered now, and the worker checked. */
  function overdue(slot: WatchedSlot, id: number, deadline: NonNullable<RetrieveOptions['deadline']>) {
    const p = slot.pending.get(id);
    if (!p) return;
    slot.pending.delete(id);
    if (!slot.ready) {
      // Waiting for a replacement to read the index: not this question's doing.
      p.reject(
        new AppError('unavailable', 'The retrieval worker is starting again after another question held it; please ask again in a moment.', {
          retryAfterSeconds: 2,
        }),
      );
      return;
    }
    // A worker building a part of its index made on first use holds the question for that, not for its words.
    p.reject(
      slot.building > 0
        ? new AppError('unavailable', 'A part of the index is still being built (it is made on first use); please ask again in a minute.', {
            retryAfterSeconds: 30,
          })
        : overBudget(deadline),
    );
    void checkHeld(slot);
  }

  return {
    /** Watches question `id`, sent to `slot`, against its deadline; returns what stops the watch once it is answered. */
    watch(slot: WatchedSlot, id: number, deadline: NonNullable<RetrieveOptions['deadline']>): () => void {
      if (!Number.isFinite(deadline.at)) return () => {};
      const timer = setTimeout(() => overdue(slot, id, deadline), Math.max(0, deadline.at - Date.now()) + timing.graceMs);
      timer.unref();
      return () => clearTimeout(timer);
    },
  };
}
