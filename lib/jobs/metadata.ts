import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { countPapersNeedingMetadata, papersNeedingMetadata, saveMetadata } from '../db/paper-metadata.ts';
import { defineJob, startJob } from '../queue/queue.ts';
import { offlineStreak, POLITE_INTERVAL_MS } from '../scholarly/http.ts';
import { fetchPaperMetadata, type MetadataServices } from '../scholarly/metadata.ts';

/**
 * The metadata job: Crossref and OpenAlex asked, one DOI at a time at a polite pace, for every paper with a DOI
 * whose metadata is missing, failed or a month old (all of them when `refresh`). It runs in the queue after imports,
 * never inside one, so an import takes no longer for it and works offline. When the first papers find both
 * services unreachable the job stops with a message saying so (offline, most likely): what was stored stays, the
 * rest of Assay is unaffected, and the next import, Fetch missing metadata on /import or `npm run enrich -- metadata` tries again.
 */
export interface MetadataProgress {
  done: number;
  total: number;
  ok: number;
  notFound: number;
  failed: number;
}

/** How old stored metadata may get before a run asks again (citation counts and notices change). */
const STALE_DAYS = 30;
const PAGE = 50;

export const servicesOf = (cfg: AssayConfig): MetadataServices => ({
  crossrefUrl: cfg.scholarly.crossrefUrl,
  openAlexUrl: cfg.scholarly.openAlexUrl,
  mailto: cfg.scholarly.mailto,
  timeoutMs: cfg.scholarly.timeoutMs,
  minIntervalMs: POLITE_INTERVAL_MS,
});

export class MetadataOffline extends Error {}

export async function runMetadata(
  db: Database,
  cfg: AssayConfig,
  opts: { refresh?: boolean; signal?: AbortSignal; report?: (p: MetadataProgress) => void } = {},
): Promise<MetadataProgress> {
  const staleBefore = opts.refresh ? new Date() : new Date(Date.now() - STALE_DAYS * 86_400_000);
  const total = await countPapersNeedingMetadata(db, staleBefore);
  const progress: MetadataProgress = { done: 0, total, ok: 0, notFound: 0, failed: 0 };
  const services = servicesOf(cfg);
  let after: string | null = null;
  const offline = offlineStreak(total);
  for (;;) {
    const page = await papersNeedingMetadata(db, staleBefore, PAGE, after);
    if (page.length === 0) break;
    for (const paper of page) {
      opts.signal?.throwIfAborted();
      after = paper.id;
      const outcome = await fetchPaperMetadata(paper.doi, services, opts.signal);
      await saveMetadata(db, paper.id, paper.doi, outcome);
      progress.done++;
      if (outcome.status === 'ok') progress.ok++;
      else if (outcome.status === 'not-found') progress.notFound++;
      else progress.failed++;
      opts.report?.({ ...progress });
      const streak = offline(outcome.offline);
      if (streak)
        throw new MetadataOffline(
          `Crossref and OpenAlex could not be reached for ${streak} ${streak === 1 ? 'paper' : 'papers'} in a row (${outcome.message}): paper metadata was not fetched. Nothing stored was lost and the rest of Assay works as before; the next import, Fetch missing metadata on /import or 'npm run enrich -- metadata' tries again.`,
        );
    }
  }
  return progress;
}

export const metadataJob = defineJob<{ refresh?: boolean }, MetadataProgress>('metadata', async ({ db, cfg, signal, report }, { refresh }) => {
  const done = await runMetadata(db, cfg, { refresh, signal, report });
  console.log(`[assay] paper metadata: ${done.ok} fetched, ${done.notFound} unknown to Crossref and OpenAlex, ${done.failed} failed`);
});

/** Queues the metadata job (once: a job already queued or running is not queued twice); null when there is nothing to do. */
export async function startMetadataJob(db: Database, cfg: AssayConfig, opts: { refresh?: boolean } = {}): Promise<string | null> {
  const staleBefore = opts.refresh ? new Date() : new Date(Date.now() - STALE_DAYS * 86_400_000);
  if ((await countPapersNeedingMetadata(db, staleBefore)) === 0) return null;
  return startJob(
    db,
    cfg,
    metadataJob,
    { label: opts.refresh ? 'paper metadata (refresh all)' : 'paper metadata from Crossref and OpenAlex' },
    () => 'paper-metadata',
    () => ({ refresh: opts.refresh }),
  );
}
