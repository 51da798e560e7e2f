import type { AssayConfig } from '../config.ts';
import type { AnswerModeChoice } from '../answer/modes.ts';
import { askAndStore } from '../answer/service.ts';
import { defineJob, jobProgress, startJob } from '../queue/queue.ts';
import { getCampaign, itemsToAnswer, setCampaignStatus, storeCampaignAnswer } from '../db/campaigns.ts';
import type { Database } from '../db/database.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import { getRetrievalService } from '../serving/app-service.ts';
import type { RetrievalService } from '../serving/retrieval-service.ts';

export interface PrepareProgress {
  done: number;
  total: number;
}

/**
 * Answers every item of a campaign with every compared pipeline and stores the answers (with their evidence)
 * before grading opens, so every grader grades the same answers. Resumable: answers already stored are kept, so
 * a restart or a retry continues where it stopped. Opens the campaign when all are there.
 */
export async function prepareCampaign(
  db: Database,
  service: RetrievalService,
  cfg: AssayConfig,
  campaignId: string,
  opts: { signal?: AbortSignal; onProgress?: (p: PrepareProgress) => void } = {},
): Promise<void> {
  const campaign = await getCampaign(db, campaignId);
  if (!campaign) throw new Error(`no campaign ${campaignId}`);
  const items = await itemsToAnswer(db, campaignId);
  const total = items.length * campaign.pipelines.length;
  let done = items.reduce((s, i) => s + i.answers.filter((a) => campaign.pipelines.includes(a.pipeline)).length, 0);
  opts.onProgress?.({ done, total });
  try {
    for (const item of items)
      for (const pipeline of campaign.pipelines) {
        if (item.answers.some((a) => a.pipeline === pipeline)) continue;
        opts.signal?.throwIfAborted();
        // In the line's background lane: a visitor asking meanwhile goes first.
        const { id } = await askAndStore(
          db,
          service,
          cfg,
          { question: item.question, pipeline: pipeline as PipelineName, mode: campaign.answerMode as AnswerModeChoice },
          { background: true },
        );
        await storeCampaignAnswer(db, item.id, pipeline, id);
        opts.onProgress?.({ done: ++done, total });
      }
    await setCampaignStatus(db, campaignId, 'open');
  } catch (error) {
    if (opts.signal?.aborted) return; // shutdown: stays "preparing" and continues on the next start of the job
    await setCampaignStatus(db, campaignId, 'failed', `answering stopped: ${(error as Error).message}`.slice(0, 500));
    throw error;
  }
}

/** What the preparation of a campaign has reported, while it is queued or running. */
export const campaignProgress = (db: Database, id: string) => jobProgress<PrepareProgress>(db, id);

/** The preparation job; a second attempt continues where the first stopped (answers already stored are kept). */
export const campaignAnswersJob = defineJob<{ campaignId: string }, PrepareProgress>('campaign-answers', ({ db, cfg, signal, report }, { campaignId }) =>
  prepareCampaign(db, getRetrievalService(db, cfg), cfg, campaignId, { signal, onProgress: report }),
);

/** Queues the preparation in the app's one job queue (visible on /import and the campaign page). */
export function startCampaignPreparation(db: Database, cfg: AssayConfig, campaign: { id: string; name: string }) {
  return startJob(
    db,
    cfg,
    campaignAnswersJob,
    { label: `answers for campaign “${campaign.name}”` },
    () => campaign.id,
    (campaignId) => ({ campaignId }),
  );
}
