import { AppError } from './errors.ts';

/**
 * The time a question (or a search) may take once it is admitted, checked by every stage. Past it the work ends with
 * a clear message, and nothing else waits for it: retrieval's steps check it as they start (lib/common/trace.ts),
 * waits for something built on first use end at it (`race`), and a retrieval worker whose thread is held past it by
 * work that cannot check it (a regular expression, a parser) is terminated and replaced (retrieval-pool.ts).
 *
 * A deadline is a point in wall-clock time (`Date.now()`), the same clock in every thread of the process, so a
 * question admitted on the server's thread carries its deadline into the worker that retrieves it.
 */
export class Deadline {
  /** When the time is up, in `Date.now()` milliseconds (Infinity: never). */
  readonly at: number;
  readonly budgetMs: number;
  readonly what: DeadlineSubject;

  private constructor(at: number, budgetMs: number, what: DeadlineSubject) {
    this.at = at;
    this.budgetMs = budgetMs;
    this.what = what;
  }

  /** A deadline `budgetMs` from now. */
  static in(budgetMs: number, what: DeadlineSubject = 'question'): Deadline {
    return new Deadline(Date.now() + budgetMs, budgetMs, what);
  }

  /** The deadline set elsewhere (another thread), from its time and budget. */
  static at(at: number, budgetMs: number, what: DeadlineSubject = 'question'): Deadline {
    return new Deadline(at, budgetMs, what);
  }

  /** No deadline: the CLI and the evaluation run questions to their end. */
  static none(what: DeadlineSubject = 'question'): Deadline {
    return new Deadline(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, what);
  }

  remainingMs(): number {
    return this.at - Date.now();
  }

  expired(): boolean {
    return Date.now() >= this.at;
  }

  /** A deadline `fraction` of the time left from now (what a model's reformulation may take of a question's time). */
  share(fraction: number): Deadline {
    return Number.isFinite(this.at) ? new Deadline(Date.now() + Math.max(0, this.remainingMs()) * fraction, this.budgetMs, this.what) : this;
  }

  /** Throws the over-budget error when the time is up (`stage`: where it was noticed, for the server's log only). */
  check(stage?: string): void {
    if (this.expired()) throw overBudget(this, stage);
  }

  /**
   * `work` or, when it has not settled by the deadline, the error `late` makes (default: over budget). The work itself
   * goes on (a lazily built index is kept for the next question); only this caller stops waiting.
   */
  race<T>(work: Promise<T>, late: () => Error = () => overBudget(this)): Promise<T> {
    if (!Number.isFinite(this.at)) return work;
    const left = this.remainingMs();
    if (left <= 0) {
      work.catch(() => {});
      return Promise.reject(late());
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(late()), left);
    });
    work.catch(() => {});
    return Promise.race([work, timeUp]).finally(() => clearTimeout(timer));
  }
}

/** What a deadline bounds, which says what the message tells the asker to change. */
export type DeadlineSubject = 'question' | 'search';

const seconds = (ms: number) => `${Number.isFinite(ms) ? Math.round(ms / 100) / 10 : '∞'} s`;

/** The error a question or search past its time ends with (422: the request, not the server, is the trouble). */
export function overBudget(deadline: { budgetMs: number; what?: DeadlineSubject }, stage?: string): AppError {
  const message =
    deadline.what === 'search'
      ? `This search took too long (over its ${seconds(deadline.budgetMs)} budget); try fewer or shorter words.`
      : `This question took too long to analyse (over its ${seconds(deadline.budgetMs)} budget); try a shorter one.`;
  return new AppError('over-budget', message, stage ? { cause: new Error(`over budget at ${stage}`) } : undefined);
}

/** Whether an error is a deadline's (from `check`, `race` or a worker that was stopped for it). */
export const isOverBudget = (error: unknown): boolean => error instanceof AppError && error.code === 'over-budget';
