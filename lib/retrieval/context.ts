import type { Deadline } from '../common/deadline.ts';
import { AppError } from '../common/errors.ts';
import { round, type StepFn } from '../common/trace.ts';
import type { ScoredId } from './lexical-index.ts';
import type { RetrievalIndex } from './index.ts';
import type { OptimisedQuery } from './reformulate.ts';
import type { QuestionAnalysis } from './question.ts';

/**
 * What retrieval reads from a question besides its analysis, made once per question (query-plan.ts) and shared by
 * every search that runs on it (the hybrid pipeline's structured and graph halves alike): the rules' optimised
 * query (method A step 1) and the paper a quoted title names (null: none quoted, or none matches).
 */
export interface QueryPlan {
  optimised: OptimisedQuery;
  titlePaper: string | null;
}

/**
 * What every retrieval step reads: the index, the analysed question, its query plan (made on first use, once per
 * question), the trace and the number of items wanted.
 */
export interface RetrievalContext {
  index: RetrievalIndex;
  analysis: QuestionAnalysis;
  plan: () => Promise<QueryPlan>;
  step: StepFn;
  /**
   * When the question's time is up (its steps check it as they start, `step`); what waits for a part of the index
   * built on first use races it. None in tests that make a context by hand.
   */
  deadline?: Deadline;
  /** Evidence items returned (top-k). */
  k: number;
}

/** Candidates each search keeps before boosts and fusion. */
export const CANDIDATES = 100;

/** The best three hits as "corpus id (score)", for trace details. */
export function topIds(ctx: Pick<RetrievalContext, 'index'>, hits: ScoredId[]): string[] {
  return hits.slice(0, 3).map((h) => {
    const p = ctx.index.paragraphs.get(h.id);
    return p ? `${p.externalId ?? p.id} (${round(h.score, 4)})` : h.id;
  });
}

/** How long a wait for a part built on first use must be before it counts as having waited for its build. */
const WAITED_FOR_BUILD_MS = 50;

/**
 * A part of the index built on first use (the records index, the graph index), waited for no longer than the
 * question's time: past it the question ends saying so and the build goes on, for the questions after it. A question
 * that waited for the build and has less than half its time left ends saying the part is ready now: the rest of its
 * work would otherwise run out of the time the wait used and end as "took too long", a question's own fault (found at
 * ten times the shared corpus, where the records index takes minutes and a question asked again near its end got 422).
 */
export async function partInTime<T>(ctx: Pick<RetrievalContext, 'deadline'>, part: Promise<T>, what: string): Promise<T> {
  const { deadline } = ctx;
  if (!deadline) return part;
  const asked = Date.now();
  const value = await deadline.race(
    part,
    () => new AppError('unavailable', `The ${what} is still being built (it is made on first use); please ask again in a minute.`, { retryAfterSeconds: 30 }),
  );
  if (Date.now() - asked > WAITED_FOR_BUILD_MS && deadline.remainingMs() < deadline.budgetMs / 2)
    throw new AppError('unavailable', `The ${what} has just been built (it is made on first use); please ask again.`, { retryAfterSeconds: 1 });
  return value;
}

/**
 * A part built on first use that a question can do without (the hybrid pipeline's graph half): waited for while
 * more than half the question's time would be left after it (the point past which `partInTime` refuses), else null,
 * and the build goes on for the questions after it. No deadline (the CLI, the evaluation): waited for to its end.
 */
export async function partIfReadyInTime<T>(ctx: Pick<RetrievalContext, 'deadline'>, part: Promise<T>): Promise<T | null> {
  const { deadline } = ctx;
  if (!deadline || !Number.isFinite(deadline.remainingMs())) return part;
  const waitMs = Math.max(0, deadline.remainingMs() - deadline.budgetMs / 2);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const notYet = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  part.catch(() => {});
  return Promise.race([part, notYet]).finally(() => clearTimeout(timer));
}
