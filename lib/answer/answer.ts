import { type ChatModel, costOf } from '../ai/providers.ts';
import { AppError } from '../common/errors.ts';
import { round } from '../common/trace.ts';
import type { Evidence } from '../evidence/model.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import { retrieve } from '../pipelines/run.ts';
import type { RetrievalResult, RetrieveOptions } from '../pipelines/types.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import type { AnswerClaim } from './claims.ts';
import { draftAnswer, draftCitations, extractiveAnswer } from './extractive.ts';
import { modelOnlyAnswer, naiveKgAnswer } from './baselines.ts';
import { generativeAnswer } from './generative.ts';
import { judgeClaims } from './judge.ts';
import type { Baseline } from './modes.ts';
import { citablePool } from './pool.ts';
import { type Answer, type AnswerSentence, answerText } from './types.ts';
import { withRecipes, type RecipeLookup } from './recipes.ts';
import { type BibliographyLookup, withBibliography } from './bibliography.ts';
import { guardOffTopic } from '../retrieval/gate/topic-guard.ts';
import { withSides } from './sides.ts';

/** The pipeline answers use unless another is chosen: both retrievers, fused. */
export const DEFAULT_ANSWER_PIPELINE: PipelineName = 'hybrid';
/** Evidence items an answer draws on (more than a hit list shows: tables need several papers). */
export const ANSWER_K = 8;
/** How long a model may take before the extractive answer stands in. */
export const MODEL_TIMEOUT_MS = 60_000;

/**
 * What an answer reports while it is made: the evidence first, then the text as it is written, and each sentence
 * with its verdict (a model's as soon as it is written; all of them again once the answer is composed, and again
 * with the judge's verdicts when a judge model runs).
 */
export interface AnswerEvents {
  onEvidence?: (pool: Evidence[]) => void;
  onDelta?: (text: string) => void;
  onClaim?: (claim: AnswerClaim) => void;
}

/** Retrieval as a service does it (the app's: in its worker pool when it has one). */
export type Retriever = (question: string, pipeline: PipelineName, opts: RetrieveOptions) => Promise<RetrievalResult>;

export interface AnswerOptions extends RetrieveOptions {
  pipeline?: PipelineName;
  /** A chat model for a generative answer; without one (the default) the answer is extractive. */
  model?: ChatModel | null;
  /** A baseline instead of the answer; needs a model. naive-kg retrieves with the graph pipeline. */
  baseline?: Baseline;
  /** A judge model: each citing sentence also gets its verdict. */
  judge?: ChatModel | null;
  timeoutMs?: number;
  /** Where a synthesis question's recipes are looked up (the records' catalogue in the database); none: not looked up. */
  recipes?: RecipeLookup;
  /** Where a question about who wrote a paper (or where, when) finds the paper's record; none: such a question is answered from its passages. */
  bibliography?: BibliographyLookup;
  events?: AnswerEvents;
  signal?: AbortSignal;
}

/**
 * Retrieves evidence for the question and answers from it: with a model, the model writes the answer from the
 * evidence (guarded and checked); without one, or when the model fails or is too slow, the extractive answer,
 * with a notice saying so.
 */
export async function answerQuestion(source: RetrievalIndex | Retriever, question: string, opts: AnswerOptions = {}): Promise<Answer> {
  const started = performance.now();
  if (opts.baseline && !opts.model)
    throw new AppError('bad-request', `the ${opts.baseline} baseline needs a model (set ASSAY_LLM_BASE_URL and ASSAY_CHAT_MODEL)`);
  const pipeline = opts.baseline === 'naive-kg' ? 'graph' : (opts.pipeline ?? DEFAULT_ANSWER_PIPELINE);
  const options = { ...opts, modelConfigured: !!opts.model, k: opts.k ?? ANSWER_K };
  const retrieved = typeof source === 'function' ? await source(question, pipeline, options) : await retrieve(source, question, pipeline, options);
  const retrieveSide = (q: string) => (typeof source === 'function' ? source(q, pipeline, options) : retrieve(source, q, pipeline, options));
  const result = opts.baseline ? retrieved : await prepareAnswer(retrieved, retrieveSide, opts);
  const answer = await composeAnswer(result, opts);
  return { ...answer, latencyMs: round(performance.now() - started) };
}

/**
 * What an answer adds to a retrieval before it is composed: a synthesis question's recipes and a bibliographic
 * question's paper record (when the lookups are given), each side of a comparison retrieved on its own (so that a
 * side the joint ranking left out gets its evidence), and the off-topic guard. `answerQuestion` and the evaluation's
 * answers (`npm run eval -- --answer`) both go through it, so what is scored is what a person is shown.
 */
export async function prepareAnswer(
  retrieved: RetrievalResult,
  retrieveSide: (question: string) => Promise<RetrievalResult>,
  lookups: Pick<AnswerOptions, 'recipes' | 'bibliography'> = {},
): Promise<RetrievalResult> {
  const withRecipesHeld = lookups.recipes ? await withRecipes(retrieved, lookups.recipes) : retrieved;
  const withRecords = lookups.bibliography ? await withBibliography(withRecipesHeld, lookups.bibliography) : withRecipesHeld;
  return guardOffTopic(await withSides(withRecords, retrieveSide));
}

/**
 * The answer to a retrieval result, in the mode the options ask for (see `answerQuestion`), with the judge's
 * verdicts when a judge model is given. Used by `answerQuestion` and by the evaluation, which retrieves itself.
 * The extractive draft and the citable pool are made once, here, before anything is reported: the pool is what
 * `onEvidence` streams, what a model is shown and what the answer stores, under the same labels throughout.
 */
export async function composeAnswer(result: RetrievalResult, opts: AnswerOptions = {}): Promise<Answer> {
  const t = performance.now();
  const draft = draftAnswer(result);
  // The model-only baseline is shown no evidence, so it has none to cite (unless it fails and the extractive answer stands in).
  let pool = opts.baseline === 'model-only' ? [] : citablePool(result, draftCitations(draft));
  if (pool.length) opts.events?.onEvidence?.(pool);
  let answer: Omit<Answer, 'trace' | 'latencyMs'>;
  let step = 'compose-extractive';
  let failure: string | null = null;
  if (opts.model) {
    step = opts.baseline ?? 'generate';
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? MODEL_TIMEOUT_MS);
    const generation = {
      model: opts.model,
      onDelta: opts.events?.onDelta,
      onClaim: opts.events?.onClaim,
      signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
    };
    try {
      answer =
        opts.baseline === 'model-only'
          ? await modelOnlyAnswer(result.question, generation)
          : opts.baseline === 'naive-kg'
            ? await naiveKgAnswer(result, pool, generation)
            : await generativeAnswer(result, draft, pool, generation);
    } catch (error) {
      failure = timeout.aborted ? `no answer within ${Math.round((opts.timeoutMs ?? MODEL_TIMEOUT_MS) / 1000)} s` : (error as Error).message.slice(0, 300);
      if (!pool.length) {
        pool = citablePool(result, draftCitations(draft));
        opts.events?.onEvidence?.(pool);
      }
      answer = {
        ...extractiveAnswer(result, draft, pool),
        notice: `The model ${opts.model.id} did not answer (${failure}); this is the extractive answer, composed from the evidence without a model.`,
      };
    }
  } else answer = extractiveAnswer(result, draft, pool);
  if (answer.mode === 'extractive') opts.events?.onDelta?.(answerText(answer));
  const reportClaims = (sentences: AnswerSentence[]) => {
    for (const [index, sentence] of sentences.entries()) opts.events?.onClaim?.({ index, sentence });
  };
  reportClaims(answer.sentences);
  let judged: { missing: number; error: string | null } | null = null;
  if (opts.judge && !answer.abstention.abstain) {
    const j = await judgeClaims(answer, opts.judge, opts.signal);
    answer = { ...answer, sentences: j.sentences };
    judged = { missing: j.missing, error: j.error };
    reportClaims(answer.sentences);
  }
  const trace = [
    ...result.trace,
    {
      step,
      ms: round(performance.now() - t),
      detail: {
        shape: answer.shape,
        mode: answer.mode,
        sentences: answer.sentences.length,
        ...(failure ? { fallback: failure } : {}),
        ...(judged ? { judge: opts.judge!.id, judgeMissing: judged.missing, ...(judged.error ? { judgeError: judged.error } : {}) } : {}),
      },
    },
  ];
  // An answer from an earlier index says so first (papers being imported are not in it).
  if (result.indexNotice) answer = { ...answer, notice: answer.notice ? `${result.indexNotice} ${answer.notice}` : result.indexNotice };
  const costUsd = answer.tokens && opts.model && answer.mode !== 'extractive' ? costOf(opts.model, answer.tokens) : null;
  return { ...answer, scope: result.scope, costUsd, trace, latencyMs: round(performance.now() - t) };
}
