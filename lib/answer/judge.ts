import { generateText, Output } from 'ai';
import { z } from 'zod';
import { claimJudgeSystemPrompt, claimJudgeUserPrompt } from '../ai/prompts.ts';
import type { ChatModel } from '../ai/providers.ts';
import { evidenceById } from '../evidence/model.ts';
import type { Answer, AnswerSentence } from './types.ts';

const verdicts = z.object({
  verdicts: z.array(z.object({ n: z.number().int(), verdict: z.enum(['supported', 'partial', 'unsupported']) })),
});

/** Characters of each cited item the judge reads. */
const JUDGE_EVIDENCE_CHARS = 1500;

/**
 * The judge model's verdict on each citing sentence, against the evidence that sentence cites (beside the
 * offline check, never replacing it). A sentence the judge gave no verdict for keeps `judge: null` and counts as
 * missing; a failing judge makes every one missing rather than failing the answer.
 */
export async function judgeClaims(
  answer: Pick<Answer, 'sentences' | 'evidence'>,
  judge: ChatModel,
  signal?: AbortSignal,
): Promise<{ sentences: AnswerSentence[]; missing: number; error: string | null }> {
  const byId = evidenceById(answer.evidence);
  const items = answer.sentences
    .map((s, i) => ({
      i,
      n: i + 1,
      statement: s.text,
      evidence: s.citations.map((id) => byId.get(id)?.text.slice(0, JUDGE_EVIDENCE_CHARS) ?? '').filter(Boolean),
    }))
    .filter((x) => x.evidence.length > 0);
  if (items.length === 0) return { sentences: answer.sentences, missing: 0, error: null };
  let got = new Map<number, AnswerSentence['judge']>();
  let error: string | null = null;
  try {
    const { output } = await generateText({
      model: judge.model,
      system: claimJudgeSystemPrompt,
      prompt: claimJudgeUserPrompt(items),
      output: Output.object({ schema: verdicts }),
      temperature: 0,
      maxRetries: 1,
      abortSignal: signal,
    });
    got = new Map(verdicts.parse(output).verdicts.map((v) => [v.n, v.verdict]));
  } catch (e) {
    error = (e as Error).message.slice(0, 300);
  }
  const judged = new Set(items.map((x) => x.i));
  const sentences = answer.sentences.map((s, i) => (judged.has(i) ? { ...s, judge: got.get(i + 1) ?? null } : s));
  return { sentences, missing: items.filter((x) => !got.has(x.n)).length, error };
}
