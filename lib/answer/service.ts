import { answerModel, judgeModel } from '../ai/providers.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { saveAnswer } from '../db/answers.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import type { RetrievalService } from '../pipelines/service.ts';
import { type AnswerEvents, answerQuestion, baselineOf } from './answer.ts';
import type { Answer } from './types.ts';

export const ANSWER_MODES = ['auto', 'extractive', 'model-only', 'naive-kg'] as const;
/**
 * auto: the configured answer model when there is one, else extractive; extractive: never a model; model-only and
 * naive-kg: method C's baselines (need the model).
 */
export type AnswerModeChoice = (typeof ANSWER_MODES)[number];

export interface AskInput {
  question: string;
  pipeline?: PipelineName;
  mode?: AnswerModeChoice;
}

/** Answers a question on the app's index with the configured model (or none) and stores the answer. */
export async function askAndStore(
  db: Database,
  service: RetrievalService,
  cfg: AssayConfig,
  input: AskInput,
  opts: { events?: AnswerEvents; signal?: AbortSignal } = {},
): Promise<{ id: string; answer: Answer }> {
  const index = await service.index();
  const model = input.mode === 'extractive' ? null : answerModel(cfg);
  const baseline = baselineOf(input.mode);
  const answer = await answerQuestion(index, input.question, {
    ...service.options,
    pipeline: input.pipeline,
    model,
    baseline,
    judge: judgeModel(cfg),
    events: opts.events,
    signal: opts.signal,
  });
  return { id: await saveAnswer(db, answer), answer };
}
