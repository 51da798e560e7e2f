import { round } from '../common/trace.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import { retrieve } from '../pipelines/run.ts';
import type { RetrieveOptions } from '../pipelines/types.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { extractiveAnswer } from './extractive.ts';
import type { Answer } from './types.ts';

/** The pipeline answers use unless another is chosen: both retrievers, fused. */
export const DEFAULT_ANSWER_PIPELINE: PipelineName = 'hybrid';
/** Evidence items an answer draws on (more than a hit list shows: tables need several papers). */
export const ANSWER_K = 8;

export interface AnswerOptions extends RetrieveOptions {
  pipeline?: PipelineName;
}

/** Retrieves evidence for the question and answers from it (extractive, no model). */
export async function answerQuestion(index: RetrievalIndex, question: string, opts: AnswerOptions = {}): Promise<Answer> {
  const started = performance.now();
  const result = await retrieve(index, question, opts.pipeline ?? DEFAULT_ANSWER_PIPELINE, { ...opts, k: opts.k ?? ANSWER_K });
  const t = performance.now();
  const answer = extractiveAnswer(result);
  const trace = [
    ...result.trace,
    { step: 'compose-extractive', ms: round(performance.now() - t), detail: { shape: answer.shape, sentences: answer.sentences.length } },
  ];
  return { ...answer, trace, latencyMs: round(performance.now() - started) };
}
