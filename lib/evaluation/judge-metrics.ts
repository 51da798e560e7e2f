import { generateText, Output } from 'ai';
import { z } from 'zod';
import { contextJudgeSystemPrompt, contextJudgeUserPrompt, questionsFromAnswerSystemPrompt } from '../ai/prompts.ts';
import type { ChatModel } from '../ai/providers.ts';
import { judgeClaims } from '../answer/judge.ts';
import type { Answer } from '../answer/types.ts';
import { dot, type TextEmbedder } from '../embedding/embedder.ts';
import { labelledItems } from '../answer/pool.ts';

/**
 * Method A's RAGAS-style scores of one answer by a judge model (../shared/METHODS.md §A), each averaged over
 * `runs` repeated judgements:
 * - faithfulness: the share of the answer's citing sentences the judge finds supported by what they cite
 *   (partial counts half);
 * - answer relevance: mean cosine similarity between the question and three questions the judge regenerates
 *   from the answer (the configured embedder);
 * - context relevance: the judge's 0/1/2 rating of each evidence item for the question, scaled to 0–1.
 * A score that does not apply is null (an abstaining answer has no statements; a model-only answer no
 * context). A judgement that fails or does not parse is counted in `missing`, never dropped or guessed.
 */
export interface JudgeScore {
  faithfulness: number | null;
  answerRelevance: number | null;
  contextRelevance: number | null;
  /** Judgements asked for (metric × run) and how many of them gave no usable score. */
  attempted: number;
  missing: number;
}

/** Evidence items the context judge reads, and the characters of each. */
const CONTEXT_ITEMS = 8;
const CONTEXT_CHARS = 1200;

const ratings = z.object({ ratings: z.array(z.object({ label: z.string(), score: z.number().min(0).max(2) })) });
const regenerated = z.object({ questions: z.array(z.string().min(3)).min(1).max(5) });

export async function judgeAnswer(answer: Answer, judge: ChatModel, embedder: TextEmbedder, runs = 1): Promise<JudgeScore> {
  const score: JudgeScore = { faithfulness: null, answerRelevance: null, contextRelevance: null, attempted: 0, missing: 0 };
  const samples = { faithfulness: [] as number[], answerRelevance: [] as number[], contextRelevance: [] as number[] };
  const answered = !answer.abstention.abstain;
  const citing = answer.sentences.some((s) => s.citations.length > 0);
  const context = labelledItems(answer.evidence, (_, i) => i < CONTEXT_ITEMS);
  const attempt = async (key: keyof typeof samples, run: () => Promise<number | null>) => {
    score.attempted++;
    try {
      const v = await run();
      if (v === null || !Number.isFinite(v)) score.missing++;
      else samples[key].push(v);
    } catch {
      score.missing++;
    }
  };
  for (let r = 0; r < runs; r++) {
    if (answered && citing)
      await attempt('faithfulness', async () => {
        const j = await judgeClaims(answer, judge);
        const got = j.sentences.filter((s) => s.judge);
        if (j.error || got.length === 0) return null;
        return got.reduce((t, s) => t + (s.judge === 'supported' ? 1 : s.judge === 'partial' ? 0.5 : 0), 0) / got.length;
      });
    if (answered)
      await attempt('answerRelevance', async () => {
        const { output } = await generateText({
          model: judge.model,
          system: questionsFromAnswerSystemPrompt,
          prompt: answer.sentences.map((s) => s.text).join(' '),
          output: Output.object({ schema: regenerated }),
          maxRetries: 1,
        });
        const qs = regenerated.parse(output).questions;
        const [q0, ...vs] = await embedder.embed([answer.question, ...qs]);
        return vs.reduce((t, v) => t + dot(q0, v), 0) / vs.length;
      });
    if (context.length > 0)
      await attempt('contextRelevance', async () => {
        const blocks = context.map(({ label, item }) => ({ label, text: item.text.slice(0, CONTEXT_CHARS) }));
        const { output } = await generateText({
          model: judge.model,
          system: contextJudgeSystemPrompt,
          prompt: contextJudgeUserPrompt(answer.question, blocks),
          output: Output.object({ schema: ratings }),
          temperature: 0,
          maxRetries: 1,
        });
        const byLabel = new Map(ratings.parse(output).ratings.map((x) => [x.label.replace(/[[\]]/g, ''), x.score]));
        // Every block needs its rating: a partial reply is a missing judgement, not a shorter average.
        if (!blocks.every((b) => byLabel.has(b.label))) return null;
        return blocks.reduce((t, b) => t + byLabel.get(b.label)! / 2, 0) / blocks.length;
      });
  }
  const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000 : null);
  return {
    ...score,
    faithfulness: mean(samples.faithfulness),
    answerRelevance: mean(samples.answerRelevance),
    contextRelevance: mean(samples.contextRelevance),
  };
}
