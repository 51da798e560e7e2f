import { answerModel, type ChatModel, judgeModel } from '../ai/providers.ts';
import { AppError } from '../common/errors.ts';
import type { AssayConfig } from '../config.ts';

/**
 * Answer modes as a person chooses them (ask screen, API, CLI, grading campaigns, evaluation) and the one place a
 * mode becomes a model set-up.
 * - auto: the configured answer model when there is one, else extractive;
 * - extractive: never a model; generative: the answer model, required;
 * - model-only and naive-kg: method C's baselines (need the model).
 */
export const ANSWER_MODES = ['auto', 'extractive', 'generative', 'model-only', 'naive-kg'] as const;
export type AnswerModeChoice = (typeof ANSWER_MODES)[number];

export const isAnswerMode = (s: string): s is AnswerModeChoice => (ANSWER_MODES as readonly string[]).includes(s);

/** Method C's baselines, for comparison when a model is configured. */
export type Baseline = 'model-only' | 'naive-kg';

export interface AnswerSetup {
  /** The model that writes the answer; null: the answer is extractive. */
  model: ChatModel | null;
  baseline?: Baseline;
  /** The judge model giving each citing sentence its verdict, when ASSAY_JUDGE_MODEL is set. */
  judge: ChatModel | null;
}

/**
 * The model set-up a mode asks for on this configuration. A mode that needs a model when none is configured is a
 * bad request, said with what to set.
 */
export function answerSetup(cfg: AssayConfig, mode: AnswerModeChoice = 'auto'): AnswerSetup {
  const model = mode === 'extractive' ? null : answerModel(cfg);
  const judge = judgeModel(cfg);
  if (mode !== 'auto' && mode !== 'extractive' && !model)
    throw new AppError('bad-request', `answer mode ${mode} needs a model: set ASSAY_LLM_BASE_URL and ASSAY_CHAT_MODEL (or ASSAY_ANSWER_MODEL)`);
  const baseline = mode === 'model-only' || mode === 'naive-kg' ? mode : undefined;
  return { model, judge, ...(baseline ? { baseline } : {}) };
}
