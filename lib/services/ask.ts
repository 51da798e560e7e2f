import type { AnswerEvents } from '../answer/answer.ts';
import type { AskRequest } from '../answer/request.ts';
import { askAndStore } from '../answer/service.ts';
import { appContext } from './app.ts';

/** Answers a question on the app's index with the configured answer mode and stores it; `events` report it as it is made. */
export async function ask(input: AskRequest, opts: { events?: AnswerEvents; signal?: AbortSignal } = {}) {
  const { db, cfg, retrieval } = await appContext();
  return askAndStore(db, retrieval, cfg, input, opts);
}

/** Refuses (503, Retry-After) when the server's line for questions is full, before an answer's stream starts. */
export async function refuseWhenBusy(): Promise<void> {
  (await appContext()).retrieval.options.admission?.refuseIfFull();
}
