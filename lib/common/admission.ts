import { AppError } from './errors.ts';

/**
 * First come, first served admission to CPU-bound work that shares the request thread (retrieval). Without it, every
 * question in a busy hour runs at once and they interleave step by step: all of them slow down together, and those
 * with more steps wait behind every newcomer (50 clients: p95 4.2–5.6 s at a p50 far below it). Admitted in the
 * order asked, `concurrency` at a time, each question waits only for those asked before it, so the slowest wait is
 * close to the typical one. Beyond `maxWaiting` questions in line a new one is refused at once (503 with
 * Retry-After) rather than left to hang.
 */
export interface Admission {
  /** Runs `work` once admitted; refused with AppError('unavailable') when the line is full or `signal` aborts first. */
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Running and waiting now (for the health route and tests). */
  load(): { running: number; waiting: number };
  /** Throws the refusal `run` would throw now (a streamed answer checks before its stream starts, to answer 503). */
  refuseIfFull(): void;
}

export interface AdmissionOptions {
  /** How many run at once: 2 lets one question's CPU work overlap another's wait for its embedding. */
  concurrency: number;
  /** How many may wait; the next is refused. */
  maxWaiting: number;
  /** What a refusal tells the client to wait, in seconds. */
  retryAfterSeconds?: number;
  /** The work's name in the refusal ("questions"). */
  what?: string;
}

export function createAdmission({ concurrency, maxWaiting, retryAfterSeconds = 2, what = 'questions' }: AdmissionOptions): Admission {
  let running = 0;
  const waiting: { start: () => void; abandon: () => void }[] = [];
  // The next question starts on a later turn of the event loop, not in the microtask of the one that ended: what
  // waits on I/O meanwhile (requests arriving, responses being written) gets its turn between two retrievals.
  const next = () => {
    while (running < concurrency && waiting.length > 0) {
      running++;
      const entry = waiting.shift()!;
      setImmediate(entry.start);
    }
  };
  const refuseIfFull = () => {
    if (waiting.length >= maxWaiting)
      throw new AppError('unavailable', `Assay is busy: ${maxWaiting} ${what} are waiting already. Please ask again in a few seconds.`, {
        retryAfterSeconds,
      });
  };
  return {
    load: () => ({ running, waiting: waiting.length }),
    refuseIfFull,
    async run(work, signal) {
      if (running >= concurrency || waiting.length > 0) {
        refuseIfFull();
        await new Promise<void>((resolve, reject) => {
          const entry = {
            start: () => {
              signal?.removeEventListener('abort', entry.abandon);
              // Gone between being admitted and starting: its place goes to the next one.
              if (signal?.aborted) {
                running--;
                next();
                reject(new AppError('unavailable', 'the request was cancelled while waiting for its turn'));
              } else resolve();
            },
            abandon: () => {
              const at = waiting.indexOf(entry);
              if (at >= 0) waiting.splice(at, 1);
              reject(new AppError('unavailable', 'the request was cancelled while waiting for its turn'));
            },
          };
          if (signal?.aborted) return entry.abandon();
          signal?.addEventListener('abort', entry.abandon, { once: true });
          waiting.push(entry);
        });
      } else running++;
      try {
        return await work();
      } finally {
        running--;
        next();
      }
    },
  };
}
