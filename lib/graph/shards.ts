import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { defineJob } from '../queue/queue.ts';
import { runPaperShards } from '../queue/stage-shards.ts';
import { extractGraph, finishGraphBuild, GRAPH_EXTRACTOR_ID, type GraphPartReport, prepareGraphBuild } from './build.ts';
import { configuredTupleExtractor } from './select.ts';

/**
 * Graph extraction as shards (lib/queue/stage-shards.ts): the import job prepares the build (the one decision over
 * every paper: whether entity spellings start afresh), queues consecutive paper ranges of about
 * `GRAPH_SHARD_PARAGRAPHS` paragraphs that any app process extracts (tuples replaced paper by paper, so a shard cut
 * short is redone from its first paper left), then finishes it once: statistics, orphans, counts. Entity
 * canonicalisation, which compares every entity with every other, stays with the import job.
 */
export interface GraphShard {
  /** The tuple extractor the build runs: a worker configured with another refuses the shard. */
  extractorId: string;
  /** The graph rules' version (GRAPH_EXTRACTOR_ID): a worker running other code refuses the shard. */
  rulesId?: string;
  papers: string[];
}

export type GraphShardResult = Pick<GraphPartReport, 'papersSeen' | 'papersExtracted' | 'tuplesWritten' | 'entitiesTouched' | 'failures'>;

/** About six seconds of the offline extractors on two cores at ×10. */
export const GRAPH_SHARD_PARAGRAPHS = 5000;

export const graphShardJob = defineJob<GraphShard, GraphShardResult>('graph-shard', async ({ db, cfg, signal, report }, shard) => {
  const extractor = configuredTupleExtractor(db, cfg);
  if (extractor.id !== shard.extractorId)
    throw new Error(
      `this process extracts tuples with ${extractor.id}, the shard is for ${shard.extractorId}: give every worker the same ASSAY_GRAPH_EXTRACTOR`,
    );
  if (shard.rulesId && shard.rulesId !== GRAPH_EXTRACTOR_ID)
    throw new Error(`this process runs the graph rules ${GRAPH_EXTRACTOR_ID}, the shard is for ${shard.rulesId}: run the same commit on every worker`);
  const r = await extractGraph(db, { extractor, signal, papers: shard.papers });
  report({
    papersSeen: r.papersSeen,
    papersExtracted: r.papersExtracted,
    tuplesWritten: r.tuplesWritten,
    entitiesTouched: r.entitiesTouched,
    failures: r.failures.slice(0, 10),
  });
});

/** The import job's graph stage as shards; `runId` names them, so a resumed run finds those it had queued. */
export async function buildGraphInShards(
  db: Database,
  cfg: AssayConfig,
  opts: { runId: string; signal?: AbortSignal; perShard?: number; onProgress?: (line: string) => Promise<void> | void },
) {
  const t0 = performance.now();
  const extractor = configuredTupleExtractor(db, cfg);
  await prepareGraphBuild(db, extractor);
  const outcome = await runPaperShards(db, cfg, graphShardJob, {
    prefix: 'graph',
    runId: opts.runId,
    words: 'extracting knowledge-graph tuples',
    perShard: opts.perShard ?? GRAPH_SHARD_PARAGRAPHS,
    input: (papers) => ({ extractorId: extractor.id, rulesId: GRAPH_EXTRACTOR_ID, papers }),
    signal: opts.signal,
    onProgress: opts.onProgress,
  });
  const results = outcome.done.flatMap((d) => (d.progress ? [d.progress] : []));
  const sum = (k: 'papersSeen' | 'papersExtracted' | 'tuplesWritten' | 'entitiesTouched') => results.reduce((n, r) => n + (r[k] ?? 0), 0);
  const papersExtracted = sum('papersExtracted');
  // A stopped build is finished by the run that resumes it (its orphans and statistics are for the whole graph).
  const finished = outcome.interrupted ? null : await finishGraphBuild(db, papersExtracted > 0);
  return {
    papersSeen: sum('papersSeen'),
    papersExtracted,
    tuplesWritten: sum('tuplesWritten'),
    entitiesTouched: sum('entitiesTouched'),
    failures: [...results.flatMap((r) => r.failures ?? []), ...outcome.failed.map((f) => `${f.id}: ${f.message}`)],
    orphansRemoved: finished?.orphansRemoved ?? { tuples: 0, entities: 0 },
    counts: finished?.counts ?? null,
    shards: outcome.shards,
    elsewhere: outcome.done.filter((d) => !d.here).length,
    interrupted: outcome.interrupted,
    seconds: (performance.now() - t0) / 1000,
  };
}
