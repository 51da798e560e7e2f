import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { type EntityLinkRow, entitiesToLink, saveEntityLinks } from '../db/entity-links.ts';
import { mergeSameItems } from '../graph/same-item-merges.ts';
import { linkEntity } from '../graph/entity-links.ts';
import { defineJob, startJob } from '../queue/queue.ts';
import { offlineStreak, POLITE_INTERVAL_MS } from '../scholarly/http.ts';

/**
 * The entity-linking job: the busiest graph entities not yet asked about (materials, properties, methods; at most
 * `limit` per run) are looked up on Wikidata, one at a time at a polite pace, and each outcome stored (linked, none,
 * error). Queued after imports like the metadata job; when Wikidata is unreachable for the first entities it stops
 * and says so, losing nothing.
 */
export interface LinkProgress {
  done: number;
  total: number;
  linked: number;
  none: number;
  failed: number;
}

/** Outcomes stored together (each write is a new corpus version; see saveEntityLinks). */
const BATCH = 100;
export const LINKS_PER_RUN = 300;

export class LinkingOffline extends Error {}

export async function runEntityLinking(
  db: Database,
  cfg: AssayConfig,
  opts: { limit?: number; signal?: AbortSignal; report?: (p: LinkProgress) => void } = {},
): Promise<LinkProgress> {
  const entities = await entitiesToLink(db, opts.limit ?? LINKS_PER_RUN);
  const progress: LinkProgress = { done: 0, total: entities.length, linked: 0, none: 0, failed: 0 };
  const call = { timeoutMs: cfg.scholarly.timeoutMs, minIntervalMs: POLITE_INTERVAL_MS, signal: opts.signal };
  const streakOf = offlineStreak(entities.length);
  const offline = (streak: number, message: string | null) =>
    new LinkingOffline(
      `Wikidata could not be reached for ${streak} ${streak === 1 ? 'entity' : 'entities'} in a row (${message}): no entity was linked. Nothing stored was lost and the rest of Assay works as before; the next import or 'npm run enrich -- links' tries again.`,
    );
  const pending: Omit<EntityLinkRow, 'checkedAt' | 'reviewedAt'>[] = [];
  const flush = async () => saveEntityLinks(db, pending.splice(0));
  try {
    return await linkAll();
  } finally {
    // What was asked is kept, whether the run ended, stopped or found Wikidata unreachable; entities now linked to
    // one item are merged.
    await flush();
    await mergeSameItems(db);
  }

  async function linkAll(): Promise<LinkProgress> {
    for (const entity of entities) {
      opts.signal?.throwIfAborted();
      const { unreachable: down, ...row } = await linkEntity(entity, cfg.scholarly.wikidataUrl, call);
      pending.push(row);
      if (pending.length >= BATCH) await flush();
      progress.done++;
      if (row.status === 'linked') progress.linked++;
      else if (row.status === 'none') progress.none++;
      else progress.failed++;
      opts.report?.({ ...progress });
      const streak = streakOf(down);
      if (streak) throw offline(streak, row.message);
    }
    return progress;
  }
}

export const entityLinkJob = defineJob<{ limit?: number }, LinkProgress>('entity-links', async ({ db, cfg, signal, report }, { limit }) => {
  const done = await runEntityLinking(db, cfg, { limit, signal, report });
  console.log(`[assay] entity links: ${done.linked} linked to Wikidata, ${done.none} without a matching item, ${done.failed} failed`);
});

/** Queues the entity-linking job unless every entity has been asked about. */
export async function startEntityLinkJob(db: Database, cfg: AssayConfig): Promise<string | null> {
  if ((await entitiesToLink(db, 1)).length === 0) return null;
  return startJob(
    db,
    cfg,
    entityLinkJob,
    { label: 'entity links from Wikidata' },
    () => 'entity-links',
    () => ({}),
  );
}
