import type { AnswerEvents } from '../answer/answer.ts';
import type { AskRequest } from '../answer/request.ts';
import { askAndStore } from '../answer/service.ts';
import type { Viewer } from '../auth/viewer.ts';
import { AppError } from '../common/errors.ts';
import { HourlyQuota } from '../common/hourly-quota.ts';
import { processObject } from '../common/process-registry.ts';
import { CLIENT_HEADER } from '../common/request-gate.mjs';
import { config } from '../config.ts';
import { appContext } from './app.ts';

/** Answers a question on the app's index with the configured answer mode and stores it; `events` report it as it is made. */
export async function ask(input: AskRequest, opts: { events?: AnswerEvents; signal?: AbortSignal; client?: string } = {}) {
  const { db, cfg, retrieval } = await appContext();
  return askAndStore(db, retrieval, cfg, input, opts);
}

/** Refuses (503, Retry-After) when the server's line for questions is full for `client`, before an answer's stream starts. */
export async function refuseWhenBusy(client?: string): Promise<void> {
  (await appContext()).retrieval.options.admission?.refuseIfFull(client);
}

/** Who asks, as the server's request gate vouches for it: what the line for questions takes turns between. */
export const askerOf = (headers: Headers): string => headers.get(CLIENT_HEADER) ?? '';

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    anonymousAnswers: HourlyQuota;
  }
}

/**
 * Counts an answer that will be stored against its asker: nothing for a signed-in account; for an anonymous visitor,
 * one of the answers their address may have stored in an hour (ASSAY_ANONYMOUS_ANSWERS_PER_HOUR), else a 429 asking
 * them to sign in. Every answer is kept (~19 KB), so that anonymous visitors could otherwise grow the database without
 * bound. Called before an answer's stream starts, so the refusal has its own status. The address is the one the
 * server's request gate vouches for (never a header a client writes).
 */
export function chargeStoredAnswer(viewer: Viewer, headers: Headers): void {
  if (viewer.user) return;
  const perHour = config().anonymousAnswersPerHour;
  const quota = processObject('anonymousAnswers', () => new HourlyQuota(perHour));
  const wait = quota.take(askerOf(headers));
  if (wait === null) return;
  throw new AppError(
    'too-many-requests',
    perHour === 0
      ? 'Sign in to ask: this instance keeps no answers of anonymous visitors'
      : `Sign in to ask more: anonymous visitors may have ${perHour} answers kept per hour from one address (the next in ${wait} s)`,
    { retryAfterSeconds: wait },
  );
}
