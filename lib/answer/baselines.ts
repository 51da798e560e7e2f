import { answerUserPrompt, modelOnlySystemPrompt, naiveKgSystemPrompt } from '../ai/prompts.ts';
import { type Evidence, evidenceById } from '../evidence/model.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import { guardCitations } from './citations.ts';
import { declined, type GenerativeOptions, modelAnswerBody, modelDeclined, promptBlocks, streamModelText } from './generative.ts';
import { labelledItems } from './pool.ts';
import type { Answer } from './types.ts';
import { verifySentences } from './verify.ts';

/**
 * The two baselines of method C (../shared/METHODS.md §C), for comparison when a model is configured. Both
 * stream like the generative answer and pass the same citation guard and claim checks, so their figures are
 * comparable:
 * - `model-only`: the model alone, no evidence; it can cite nothing, so every sentence is uncited;
 * - `naive-kg`: the graph retriever's tuples pasted in as numbered facts, with no tiers, paths or abstention gate.
 */
type AnswerBody = Omit<Answer, 'trace' | 'latencyMs'>;

/** Tuples the naive-KG prompt holds at most. */
const NAIVE_KG_FACTS = 20;

export async function modelOnlyAnswer(question: string, opts: GenerativeOptions): Promise<AnswerBody> {
  const { text, tokens } = await streamModelText({ ...opts, system: modelOnlySystemPrompt, prompt: question });
  const body = modelAnswerBody(question, 'none', 'model-only', opts, tokens, []);
  if (declined(text)) return { ...body, ...modelDeclined() };
  return {
    ...body,
    // Nothing was retrieved, so any bracketed reference the model writes is removed by the guard.
    sentences: verifySentences(guardCitations(text, []), new Map()),
    notice: `Baseline: written by ${opts.model.id} from its own knowledge, with no retrieval; nothing in it is checked against the corpus.`,
  };
}

/** The graph tuples of the answer's pool (the first 20), under their pool labels, as the prompt's numbered facts. */
export async function naiveKgAnswer(result: RetrievalResult, pool: Evidence[], opts: GenerativeOptions): Promise<AnswerBody> {
  const facts = labelledItems(pool, (e) => e.kind === 'tuple' || e.kind === 'path').slice(0, NAIVE_KG_FACTS);
  const { text, tokens } = await streamModelText({ ...opts, system: naiveKgSystemPrompt, prompt: answerUserPrompt(result.question, promptBlocks(facts)) });
  const body = modelAnswerBody(result.question, result.pipeline, 'naive-kg', opts, tokens, pool);
  if (declined(text)) return { ...body, ...modelDeclined() };
  return {
    ...body,
    sentences: verifySentences(guardCitations(text, facts), evidenceById(pool)),
    notice: `Baseline: the graph retriever's tuples pasted into ${opts.model.id}'s prompt with no tiers or paths.`,
  };
}
