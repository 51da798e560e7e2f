import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { refreshStatistics } from '../db/statistics.ts';
import { defineJob } from '../queue/queue.ts';
import { runPaperShards } from '../queue/stage-shards.ts';
import { runStructuring, type StructuringReport } from '../structure/pipeline.ts';
import { configuredExtractor } from './select.ts';

/**
 * The structuring stage as shards (lib/queue/stage-shards.ts): consecutive paper ranges of about
 * `STRUCTURE_SHARD_PARAGRAPHS` paragraphs, each structured (paragraphs, then the papers' records) by whichever app
 * process takes it — the import job's own process, and every `npm run worker` on the same PostgreSQL. A paragraph's
 * stamp is written with its annotations, so a shard cut short is redone from where it stopped by its next owner.
 */
export interface StructureShard {
  /** The extractor the stage runs: a worker configured with another refuses the shard (its stamps would differ). */
  extractorId: string;
  papers: string[];
  /** Papers of the range whose record must be rebuilt though no paragraph changed (they gained records). */
  alsoRebuild: string[];
}

/** What a shard reports when it ends (the coordinator adds them up). */
export type StructureShardResult = Pick<StructuringReport, 'paragraphsSeen' | 'paragraphsStructured' | 'papersRecorded' | 'failures' | 'failureSamples'>;

/** About four seconds of the offline rules on two cores at ×10; a model extractor's shard takes longer, and is worth more hands. */
export const STRUCTURE_SHARD_PARAGRAPHS = 5000;

export const structureShardJob = defineJob<StructureShard, StructureShardResult>('structure-shard', async ({ db, cfg, signal, report }, shard) => {
  const { extractor, concurrency } = configuredExtractor(db, cfg);
  if (extractor.id !== shard.extractorId)
    throw new Error(
      `this process structures paragraphs with ${extractor.id}, the shard is for ${shard.extractorId}: give every worker the same ASSAY_EXTRACTOR`,
    );
  const r = await runStructuring(db, { extractor, concurrency, signal, papers: shard.papers, alsoRebuild: shard.alsoRebuild, statistics: false });
  report({
    paragraphsSeen: r.paragraphsSeen,
    paragraphsStructured: r.paragraphsStructured,
    papersRecorded: r.papersRecorded,
    failures: r.failures,
    failureSamples: r.failureSamples,
  });
});

/**
 * The import job's structuring stage: every paper's new or changed paragraphs structured and its record rebuilt,
 * shard by shard in whichever processes take them, with the planner's statistics refreshed once at the end.
 * `runId` names the shards, so a resumed run finds those it had queued.
 */
export async function structureInShards(
  db: Database,
  cfg: AssayConfig,
  opts: { runId: string; alsoRebuild?: string[]; signal?: AbortSignal; perShard?: number; onProgress?: (line: string) => Promise<void> | void },
): Promise<StructureShardResult & { shards: number; elsewhere: number; failedShards: string[]; interrupted: boolean }> {
  const { extractor } = configuredExtractor(db, cfg);
  // The import just wrote the paragraphs the shards page through and build records from: plans from fresh statistics.
  await refreshStatistics(db, ['Paragraph']);
  const rebuild = new Set(opts.alsoRebuild ?? []);
  const outcome = await runPaperShards(db, cfg, structureShardJob, {
    prefix: 'structure',
    runId: opts.runId,
    words: 'structuring paragraphs',
    perShard: opts.perShard ?? STRUCTURE_SHARD_PARAGRAPHS,
    input: (papers) => ({ extractorId: extractor.id, papers, alsoRebuild: papers.filter((p) => rebuild.has(p)) }),
    signal: opts.signal,
    onProgress: opts.onProgress,
  });
  const results = outcome.done.flatMap((d) => (d.progress ? [d.progress] : []));
  const sum = (k: 'paragraphsSeen' | 'paragraphsStructured' | 'papersRecorded' | 'failures') => results.reduce((n, r) => n + (r[k] ?? 0), 0);
  const total = {
    paragraphsSeen: sum('paragraphsSeen'),
    paragraphsStructured: sum('paragraphsStructured'),
    papersRecorded: sum('papersRecorded'),
    failures: sum('failures'),
    failureSamples: [...new Set(results.flatMap((r) => r.failureSamples ?? []))].slice(0, 10),
  };
  // The records the graph stage reads next, and the mentions later stages read, planned from fresh statistics.
  if (total.paragraphsStructured) await refreshStatistics(db, ['Paragraph', 'Mention']);
  if (total.papersRecorded) await refreshStatistics(db, ['PaperRecord']);
  return {
    ...total,
    shards: outcome.shards,
    elsewhere: outcome.done.filter((d) => !d.here).length,
    failedShards: outcome.failed.map((f) => `${f.id}: ${f.message}`),
    interrupted: outcome.interrupted,
  };
}
