import type { ChatModel } from '../ai/providers.ts';
import { round } from '../common/trace.ts';
import type { Evidence } from '../evidence/model.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import { retrieve } from '../pipelines/run.ts';
import type { RetrieveOptions } from '../pipelines/types.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { evidencePool, extractiveAnswer } from './extractive.ts';
import { generativeAnswer } from './generative.ts';
import { type Answer, answerText } from './types.ts';

/** The pipeline answers use unless another is chosen: both retrievers, fused. */
export const DEFAULT_ANSWER_PIPELINE: PipelineName = 'hybrid';
/** Evidence items an answer draws on (more than a hit list shows: tables need several papers). */
export const ANSWER_K = 8;
/** How long a model may take before the extractive answer stands in. */
export const MODEL_TIMEOUT_MS = 60_000;

/** What an answer reports while it is made: the evidence first, then the text as it is written. */
export interface AnswerEvents {
  onEvidence?: (pool: Evidence[]) => void;
  onDelta?: (text: string) => void;
}

export interface AnswerOptions extends RetrieveOptions {
  pipeline?: PipelineName;
  /** A chat model for a generative answer; without one (the default) the answer is extractive. */
  model?: ChatModel | null;
  timeoutMs?: number;
  events?: AnswerEvents;
  signal?: AbortSignal;
}

/**
 * Retrieves evidence for the question and answers from it: with a model, the model writes the answer from the
 * evidence (guarded and checked); without one, or when the model fails or is too slow, the extractive answer,
 * with a notice saying so.
 */
export async function answerQuestion(index: RetrievalIndex, question: string, opts: AnswerOptions = {}): Promise<Answer> {
  const started = performance.now();
  const result = await retrieve(index, question, opts.pipeline ?? DEFAULT_ANSWER_PIPELINE, { ...opts, modelConfigured: !!opts.model, k: opts.k ?? ANSWER_K });
  opts.events?.onEvidence?.(evidencePool(result));
  const t = performance.now();
  let answer: Omit<Answer, 'trace' | 'latencyMs'>;
  let step = 'compose-extractive';
  let failure: string | null = null;
  if (opts.model) {
    step = 'generate';
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? MODEL_TIMEOUT_MS);
    try {
      answer = await generativeAnswer(result, {
        model: opts.model,
        onDelta: opts.events?.onDelta,
        signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
      });
    } catch (error) {
      failure = timeout.aborted ? `no answer within ${Math.round((opts.timeoutMs ?? MODEL_TIMEOUT_MS) / 1000)} s` : (error as Error).message.slice(0, 300);
      answer = {
        ...extractiveAnswer(result),
        notice: `The model ${opts.model.id} did not answer (${failure}); this is the extractive answer, composed from the evidence without a model.`,
      };
    }
  } else answer = extractiveAnswer(result);
  if (answer.mode === 'extractive') opts.events?.onDelta?.(answerText(answer));
  const trace = [
    ...result.trace,
    {
      step,
      ms: round(performance.now() - t),
      detail: { shape: answer.shape, mode: answer.mode, sentences: answer.sentences.length, ...(failure ? { fallback: failure } : {}) },
    },
  ];
  return { ...answer, trace, latencyMs: round(performance.now() - started) };
}
