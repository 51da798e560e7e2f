import { AppError } from './errors.ts';

/**
 * Admission to CPU-bound work that shares a thread (retrieval), fair between clients and bounded in cost. Without a
 * line, every question in a busy hour runs at once and they interleave step by step: all slow down together (50
 * clients: p95 4.2–5.6 s at a p50 far below it). With it, `concurrency` run at once and the rest wait:
 *
 * - **In turn between clients.** When a place frees, it goes to the waiting question whose client has the fewest
 *   questions running, the one asked first among those: a client with twenty questions in line takes one place after
 *   another only while nobody else waits, and another client's question is next as soon as it asks. One client alone
 *   is served in the order asked, as before.
 * - **Long questions in a lane of their own.** A question marked `heavy` (a long text, whose analysis costs more) runs
 *   only while fewer than `heavyConcurrency` heavy ones run: however many arrive, the other places stay for ordinary
 *   questions, which start at once.
 * - **Background work gives way.** A question a job asks (the ask screen's example checks, a grading campaign's
 *   answers) runs only in a lane of one place, and only when no visitor's question waits for a place; in a full line
 *   it is the first to give its place.
 * - **A full line is shared, not first come first served.** Beyond `maxWaiting` waiting, a newcomer whose client has
 *   fewer in line than the client with the most takes the place of that client's newest (which is refused with 503);
 *   a newcomer whose client already has the most is refused. A flood from one client cannot fill the line for others.
 */
export interface Admission {
  /**
   * Runs `work` once admitted; refused with AppError('unavailable') when the line is full for its client or `signal`
   * aborts first. `ticket` says who asks and whether the question is heavy (default: one anonymous client, light).
   */
  run<T>(work: () => Promise<T>, signal?: AbortSignal, ticket?: AdmissionTicket): Promise<T>;
  /** Running and waiting now (for the health route and tests). */
  load(): { running: number; waiting: number };
  /** Throws the refusal `run` would throw now (a streamed answer checks before its stream starts, to answer 503). */
  refuseIfFull(client?: string): void;
}

export interface AdmissionTicket {
  /** Who asks: the address the server's request gate vouches for. */
  client?: string;
  /** A question whose work is bounded only by its budget (a long text): runs in the heavy lane. */
  heavy?: boolean;
  /** Asked by a job, not a visitor: runs in the background lane, after every visitor's question. */
  background?: boolean;
}

export interface AdmissionOptions {
  /** How many run at once: 2 lets one question's CPU work overlap another's wait for its embedding. */
  concurrency: number;
  /** How many may wait; past it a newcomer takes a place only from the client with the most in line. */
  maxWaiting: number;
  /** How many heavy questions run at once (default a quarter of `concurrency`, at least 1). */
  heavyConcurrency?: number;
  /** What a refusal tells the client to wait, in seconds. */
  retryAfterSeconds?: number;
  /** The work's name in the refusal ("questions"). */
  what?: string;
}

interface Waiting {
  client: string;
  heavy: boolean;
  background: boolean;
  start: () => void;
  refuse: (error: AppError) => void;
}

/** Places background work may hold at once. */
const BACKGROUND_CONCURRENCY = 1;

type Lanes = Pick<Waiting, 'client' | 'heavy' | 'background'>;

export function createAdmission(opts: AdmissionOptions): Admission {
  const { concurrency, maxWaiting, retryAfterSeconds = 2, what = 'questions' } = opts;
  const heavyConcurrency = opts.heavyConcurrency ?? Math.max(1, Math.floor(concurrency / 4));
  let running = 0;
  let runningHeavy = 0;
  let runningBackground = 0;
  const runningOf = new Map<string, number>();
  /** In the order asked. */
  const waiting: Waiting[] = [];

  const busy = () =>
    new AppError('unavailable', `Assay is busy: ${maxWaiting} ${what} are waiting already. Please ask again in a few seconds.`, { retryAfterSeconds });
  const cancelled = () => new AppError('unavailable', 'the request was cancelled while waiting for its turn');
  const waitingOf = (client: string) => waiting.reduce((n, w) => n + (w.client === client ? 1 : 0), 0);
  /** The client with the most questions in line, and how many. */
  const fullest = () => {
    const counts = new Map<string, number>();
    for (const w of waiting) counts.set(w.client, (counts.get(w.client) ?? 0) + 1);
    let top: [string, number] = ['', 0];
    for (const c of counts) if (c[1] > top[1]) top = c;
    return top;
  };
  /** Whether a newcomer of `client` gets a place in the full line (by taking one from the fullest client). */
  const displaces = (client: string) => waitingOf(client) + 1 < fullest()[1];

  const take = (w: Lanes) => {
    running++;
    if (w.heavy) runningHeavy++;
    if (w.background) runningBackground++;
    runningOf.set(w.client, (runningOf.get(w.client) ?? 0) + 1);
  };
  const release = (w: Lanes) => {
    running--;
    if (w.heavy) runningHeavy--;
    if (w.background) runningBackground--;
    const n = (runningOf.get(w.client) ?? 1) - 1;
    if (n > 0) runningOf.set(w.client, n);
    else runningOf.delete(w.client);
  };

  /** Whether `w`'s lanes have room for one more. */
  const roomFor = (w: Lanes) => !(w.heavy && runningHeavy >= heavyConcurrency) && !(w.background && runningBackground >= BACKGROUND_CONCURRENCY);

  /**
   * The waiting question to start next: of those their lanes let run, the one whose client runs fewest, first asked;
   * background work only when no visitor's question waits.
   */
  const pick = (): number => {
    let best = -1;
    let bestRunning = Number.POSITIVE_INFINITY;
    const visitorWaits = waiting.some((w) => !w.background);
    for (let i = 0; i < waiting.length; i++) {
      const w = waiting[i];
      if (!roomFor(w) || (w.background && visitorWaits)) continue;
      const r = runningOf.get(w.client) ?? 0;
      if (r < bestRunning) {
        best = i;
        bestRunning = r;
        if (r === 0) break;
      }
    }
    return best;
  };

  // A question starts on a later turn of the event loop, not in the microtask of the one that ended: what waits on
  // I/O meanwhile (requests arriving, responses being written) gets its turn between two retrievals.
  const next = () => {
    while (running < concurrency) {
      const at = pick();
      if (at < 0) return;
      const [w] = waiting.splice(at, 1);
      take(w);
      setImmediate(w.start);
    }
  };

  const refuseIfFull = (client = '') => {
    if (waiting.length >= maxWaiting && !displaces(client)) throw busy();
  };

  return {
    load: () => ({ running, waiting: waiting.length }),
    refuseIfFull,
    async run(work, signal, ticket = {}) {
      const client = ticket.client ?? '';
      const heavy = ticket.heavy ?? false;
      const background = ticket.background ?? false;
      if (signal?.aborted) throw cancelled();
      const self: Lanes = { client, heavy, background };
      if (waiting.length === 0 && running < concurrency && roomFor(self)) {
        // Nobody waits and its lane has room: it starts now.
        take(self);
        try {
          return await work();
        } finally {
          release(self);
          next();
        }
      }
      if (waiting.length >= maxWaiting) {
        // Background work's newest gives its place to a visitor first; else the fullest client's newest.
        const job = background ? -1 : waiting.findLastIndex((w) => w.background);
        if (job < 0 && (background || !displaces(client))) throw busy();
        const [top] = fullest();
        const at = job >= 0 ? job : waiting.findLastIndex((w) => w.client === top);
        waiting.splice(at, 1)[0].refuse(busy());
      }
      await new Promise<void>((resolve, reject) => {
        const abandon = () => {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          reject(cancelled());
        };
        const entry: Waiting = {
          client,
          heavy,
          background,
          start: () => {
            signal?.removeEventListener('abort', abandon);
            // Gone between being admitted and starting: its place goes to the next one.
            if (signal?.aborted) {
              release(entry);
              next();
              reject(cancelled());
            } else resolve();
          },
          refuse: (error) => {
            signal?.removeEventListener('abort', abandon);
            reject(error);
          },
        };
        signal?.addEventListener('abort', abandon, { once: true });
        waiting.push(entry);
        next();
      });
      try {
        return await work();
      } finally {
        release(self);
        next();
      }
    },
  };
}
