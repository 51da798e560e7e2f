import { storedAnswerOf } from '../answer/stored.ts';
import { generateText, Output } from 'ai';
import { z } from 'zod';
import { gradingJudgeSystemPrompt, gradingJudgeUserPrompt } from '../ai/prompts.ts';
import { type ChatModel, judgeModel } from '../ai/providers.ts';
import type { AssayConfig } from '../config.ts';
import { labelledItems } from '../answer/pool.ts';
import { answerText } from '../answer/types.ts';
import { campaignItemsWithGrades, getCampaign, saveJudgeGrade } from '../db/campaigns.ts';
import type { Database } from '../db/database.ts';
import { defineJob, startJob } from '../queue/queue.ts';
import { slotLabel } from './assignment.ts';
import { type Marks, RUBRICS, type RubricId } from './rubrics.ts';

/** Evidence the judge reads per answer, and characters of each. */
const EVIDENCE_ITEMS = 8;
const EVIDENCE_CHARS = 700;

/**
 * The §C judge model grades a campaign's items on the campaign's rubric, as one more rater beside the experts
 * (stored as a Grade with `judge` set). It sees the answers blind, in pipeline order labelled A, B …; a reply that
 * does not parse leaves that item without a judge grade (counted in `failed`), never a guessed score.
 */
export async function judgeCampaign(
  db: Database,
  judge: ChatModel,
  campaignId: string,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ judged: number; failed: number }> {
  const campaign = await getCampaign(db, campaignId);
  if (!campaign) throw new Error(`no campaign ${campaignId}`);
  const rubric = RUBRICS[campaign.rubric as RubricId];
  const items = await campaignItemsWithGrades(db, campaignId);
  let judged = 0;
  let failed = 0;
  for (const [n, item] of items.entries()) {
    opts.signal?.throwIfAborted();
    const answers = item.answers.filter((a) => campaign.pipelines.includes(a.pipeline));
    const schema: z.ZodType<Record<string, unknown>> = rubric.pairwise
      ? z.object({ preference: z.enum(['A', 'B', 'tie']), reason: z.string() })
      : z.object({
          scores: z.object(
            Object.fromEntries(
              answers.map((_, i) => [slotLabel(i), z.object(Object.fromEntries(rubric.criteria.map((c) => [c.id, z.number().int().min(c.min).max(c.max)])))]),
            ),
          ),
        });
    try {
      const { output } = await generateText({
        model: judge.model,
        system: gradingJudgeSystemPrompt,
        prompt: gradingJudgeUserPrompt({
          question: item.question,
          pairwise: rubric.pairwise,
          criteria: rubric.criteria.map((c) => ({ id: c.id, label: c.label, min: c.min, max: c.max, guide: Object.values(c.anchors) })),
          answers: answers.map((a, i) => {
            const answer = storedAnswerOf(a.answer);
            return {
              slot: slotLabel(i),
              text: answerText(answer),
              evidence: labelledItems(answer.evidence, (_, k) => k < EVIDENCE_ITEMS).map(({ label, item }) => ({
                label,
                text: item.text.slice(0, EVIDENCE_CHARS),
              })),
            };
          }),
        }),
        output: Output.object({ schema }),
        temperature: 0,
        abortSignal: opts.signal,
      });
      const marks: Marks = { scores: {}, preference: null, claims: {}, flags: [], comment: '' };
      if ('preference' in output) {
        const p = output as { preference: 'A' | 'B' | 'tie'; reason: string };
        marks.preference = { winner: p.preference === 'tie' ? 'tie' : answers[p.preference === 'A' ? 0 : 1].id, reason: p.reason };
      } else {
        const scores = (output as { scores: Record<string, Record<string, number>> }).scores;
        answers.forEach((a, i) => {
          marks.scores[a.id] = scores[slotLabel(i)];
        });
      }
      await saveJudgeGrade(db, item.id, judge.id, marks);
      judged++;
    } catch (error) {
      if (opts.signal?.aborted) throw error;
      failed++;
    }
    opts.onProgress?.(n + 1, items.length);
  }
  return { judged, failed };
}

/** The judge's job, with the judge model the running process is configured with. */
export const campaignJudgeJob = defineJob<{ campaignId: string }>('campaign-judge', ({ db, cfg, signal }, { campaignId }) => {
  const judge = judgeModel(cfg);
  if (!judge) throw new Error('no judge model is configured in the process that took this job (ASSAY_JUDGE_MODEL)');
  return judgeCampaign(db, judge, campaignId, { signal });
});

/** Queues the judge over a campaign in the app's one job queue. */
export function startCampaignJudging(db: Database, cfg: AssayConfig, judge: ChatModel, campaign: { id: string; name: string }) {
  return startJob(
    db,
    cfg,
    campaignJudgeJob,
    { label: `judge ${judge.id} grades campaign “${campaign.name}”` },
    () => `judge-${campaign.id}`,
    () => ({ campaignId: campaign.id }),
  );
}
