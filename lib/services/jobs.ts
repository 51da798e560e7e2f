import { metadataJob, startMetadataJob } from '../jobs/metadata.ts';
import { entityLinkJob } from '../jobs/entity-links.ts';
import { countPapersNeedingMetadata, metadataCounts } from '../db/paper-metadata.ts';
import { pathRoots, publicText } from '../common/public-path.ts';
import { downloadJob } from '../corpus/starter.ts';
import { evaluationJob } from '../evaluation/background.ts';
import { campaignJudgeJob } from '../grading/judge.ts';
import { campaignAnswersJob } from '../grading/prepare.ts';
import { importJob } from '../jobs/background.ts';
import { embeddingShardJob } from '../embedding/shards.ts';
import { graphShardJob } from '../graph/shards.ts';
import { structureShardJob } from '../structurers/shards.ts';
import { recordIndexJob, recordShardJob } from '../serving/record-shards.ts';
import { backgroundJobs } from '../queue/queue.ts';
import { appContext } from './app.ts';

/**
 * Every kind of job the app queues: an app server's worker runs all of them, whichever process queued them (the
 * queue is shared through the database; see lib/queue/queue.ts).
 */
export const APP_JOBS = [
  importJob,
  downloadJob,
  evaluationJob,
  campaignAnswersJob,
  campaignJudgeJob,
  metadataJob,
  entityLinkJob,
  embeddingShardJob,
  structureShardJob,
  graphShardJob,
  recordShardJob,
  recordIndexJob,
];

/** The shared job queue as the panel shows it (server paths in labels named as the README names them). */
export async function queuedJobs() {
  const { db, cfg } = await appContext();
  const roots = pathRoots(cfg);
  return (await backgroundJobs(db)).map((j) => ({ ...j, label: publicText(j.label, roots) }));
}

/** A job as anybody may see it (the import banner's rule: no file names, hosts, processes or ids). */
export interface PublicJob {
  kind: string;
  state: 'running' | 'queued';
  since: string;
  shard: boolean;
}

/** The shared job queue as a reader or anonymous visitor sees it. */
export async function publicJobs(): Promise<PublicJob[]> {
  const { db } = await appContext();
  return (await backgroundJobs(db)).map((j) => ({ kind: j.kind, state: j.state, since: j.since, shard: j.shard }));
}

/** What the import page says of paper metadata: fetched, unknown to the services, failed, and still to ask. */
export async function metadataStatus() {
  const { db, cfg } = await appContext();
  const counts = await metadataCounts(db);
  return {
    ok: counts.ok ?? 0,
    notFound: counts['not-found'] ?? 0,
    failed: counts.error ?? 0,
    waiting: await countPapersNeedingMetadata(db, new Date(Date.now() - 30 * 86_400_000)),
    enrichment: cfg.scholarly.enrichment,
    services: [cfg.scholarly.crossrefUrl, cfg.scholarly.openAlexUrl],
  };
}

/** Queues the metadata job (`refresh`: every paper with a DOI, not only those missing or failed); null when nothing waits. */
export async function queueMetadata(refresh: boolean): Promise<string | null> {
  const { db, cfg } = await appContext();
  return startMetadataJob(db, cfg, { refresh });
}
