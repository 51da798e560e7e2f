import { metadataJob } from '../jobs/metadata.ts';
import { pathRoots, publicText } from '../common/public-path.ts';
import { downloadJob } from '../corpus/starter.ts';
import { evaluationJob } from '../evaluation/background.ts';
import { campaignJudgeJob } from '../grading/judge.ts';
import { campaignAnswersJob } from '../grading/prepare.ts';
import { importJob } from '../jobs/background.ts';
import { backgroundJobs } from '../queue/queue.ts';
import { appContext } from './app.ts';

/**
 * Every kind of job the app queues: an app server's worker runs all of them, whichever process queued them (the
 * queue is shared through the database; see lib/queue/queue.ts).
 */
export const APP_JOBS = [importJob, downloadJob, evaluationJob, campaignAnswersJob, campaignJudgeJob, metadataJob];

/** The shared job queue as the panel shows it (server paths in labels named as the README names them). */
export async function queuedJobs() {
  const { db, cfg } = await appContext();
  const roots = pathRoots(cfg);
  return (await backgroundJobs(db)).map((j) => ({ ...j, label: publicText(j.label, roots) }));
}
