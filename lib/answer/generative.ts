import { streamText } from 'ai';
import { answerSystemPrompt, answerUserPrompt, NO_ANSWER_SENTINEL } from '../ai/prompts.ts';
import type { ChatModel } from '../ai/providers.ts';
import { type Evidence, evidenceById, externalIdsOf, paperOf } from '../evidence/model.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import { guardCitations } from './citations.ts';
import { type AnswerClaim, claimStream } from './claims.ts';
import { extractiveAnswer } from './extractive.ts';
import { labelledItems } from './pool.ts';
import { gateDraft } from './gate.ts';
import type { AnswerDraft } from './shapes/types.ts';
import type { Answer } from './types.ts';
import { verifySentences } from './verify.ts';

/** Evidence blocks a prompt holds at most, and the characters of each: a bounded prompt. */
const MAX_BLOCKS = 12;
const MAX_BLOCK_CHARS = 1500;

export interface GenerativeOptions {
  model: ChatModel;
  /** Text as it arrives (for streaming to the browser). */
  onDelta?: (text: string) => void;
  /** Each sentence of the answer, guarded and checked, as soon as the model has finished writing it. */
  onClaim?: (claim: AnswerClaim) => void;
  signal?: AbortSignal;
}

/** The blocks of a prompt: items of the answer's pool under their pool labels. */
export function promptBlocks(shown: { label: string; item: Evidence }[]): { label: string; source: string; text: string }[] {
  return shown.map(({ label, item: e }) => ({
    label,
    source: [paperOf(e)?.title ?? paperOf(e)?.doi ?? 'untitled paper', e.kind, externalIdsOf(e)[0]].filter(Boolean).join(', '),
    text: e.text.length > MAX_BLOCK_CHARS ? `${e.text.slice(0, MAX_BLOCK_CHARS)}…` : e.text,
  }));
}

type AnswerBody = Omit<Answer, 'trace' | 'latencyMs'>;

/** What every model-written answer starts from: its mode and model, the pool it may cite, nothing said yet. */
export function modelAnswerBody(
  question: string,
  pipeline: string,
  mode: Exclude<AnswerBody['mode'], 'extractive'>,
  opts: GenerativeOptions,
  tokens: AnswerBody['tokens'],
  pool: Evidence[],
): AnswerBody {
  return {
    question,
    pipeline,
    mode,
    modelId: opts.model.id,
    shape: 'descriptive',
    sentences: [],
    table: null,
    disagreement: null,
    abstention: { abstain: false, reasons: [], explanation: '', corpusHolds: null },
    evidence: pool,
    notice: null,
    confidence: 0,
    tokens,
  };
}

/**
 * A model's answer from the retrieved evidence: the first blocks of the answer's pool go in under their labels,
 * the text streams out, and then passes the citation guard (only blocks of this prompt may be cited) and the
 * claim checks. When the extractive draft abstains (nothing retrieved answers), that abstention is the answer;
 * when the model declines with the sentinel, the answer abstains. Errors are thrown: the caller falls back to the
 * extractive answer.
 */
export async function generativeAnswer(result: RetrievalResult, draft: AnswerDraft, pool: Evidence[], opts: GenerativeOptions): Promise<AnswerBody> {
  if (draft.shape === 'abstain') return extractiveAnswer(result, draft, pool);
  const shown = labelledItems(pool, (_, i) => i < MAX_BLOCKS);
  const claims = opts.onClaim ? claimStream(pool, shown, opts.onClaim) : null;
  const onDelta = (delta: string) => {
    opts.onDelta?.(delta);
    claims?.push(delta);
  };
  const { text, tokens } = await streamModelText({
    ...opts,
    onDelta,
    system: answerSystemPrompt,
    prompt: answerUserPrompt(result.question, promptBlocks(shown)),
  });
  // The model wrote from the pool the draft was composed from: the draft's gate is the answer's confidence.
  const gate = gateDraft(result, draft, pool);
  const base = {
    ...modelAnswerBody(result.question, result.pipeline, 'generative', opts, tokens, pool),
    shape: draft.shape,
    confidence: gate.confidence,
    gate: gate.reading,
    unverified: gate.unverified,
  };
  if (declined(text)) return { ...base, ...modelDeclined() };
  return { ...base, sentences: verifySentences(guardCitations(text, shown), evidenceById(pool)) };
}

/** Whether the model declined with the sentinel. */
export const declined = (text: string) => text.trim().startsWith(NO_ANSWER_SENTINEL);

/** The parts of an answer the model declined to give. */
export function modelDeclined(): Pick<Answer, 'shape' | 'sentences' | 'abstention' | 'confidence'> {
  return {
    shape: 'abstain',
    sentences: [{ text: 'The model found no answer to this question in the evidence.', citations: [], verdict: 'uncited', check: null, flags: [] }],
    abstention: {
      abstain: true,
      reasons: ['model-declined'],
      explanation: 'the model declined: the evidence does not answer the question',
      corpusHolds: null,
    },
    confidence: 0,
  };
}

/**
 * Streams one model reply, reporting each piece of text as it arrives; returns the whole text and the tokens
 * used. The stream's first error is rethrown with its own message (the caller falls back to the extractive
 * answer).
 */
export async function streamModelText(
  opts: GenerativeOptions & { system: string; prompt: string },
): Promise<{ text: string; tokens: { prompt: number; completion: number } }> {
  let failure: unknown = null;
  const stream = streamText({
    model: opts.model.model,
    system: opts.system,
    prompt: opts.prompt,
    abortSignal: opts.signal,
    maxRetries: 1,
    onError: ({ error }) => {
      failure ??= error;
    },
  });
  let text = '';
  for await (const delta of stream.textStream) {
    text += delta;
    opts.onDelta?.(delta);
  }
  if (failure) throw failure;
  const usage = await stream.usage;
  return { text, tokens: { prompt: usage.inputTokens ?? 0, completion: usage.outputTokens ?? 0 } };
}
