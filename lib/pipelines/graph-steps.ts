import { round } from '../common/trace.ts';
import { partInTime } from '../retrieval/context.ts';
import type { Evidence } from '../evidence/model.ts';
import { type ScoredTuple, tupleEvidence } from '../retrieval/evidence.ts';
import type { GraphIndex } from '../retrieval/graph-index.ts';
import { embeddedGraphSource, type GraphCandidateSource } from '../retrieval/graph-source.ts';
import type { PipelineContext } from './types.ts';

/** Steps the graph pipelines (graph, graph-keyword, aria) share. */

/** Tuples shown with a graph pipeline's result (best first). */
export const SHOWN_TUPLES = 50;

/** The graph index (built on first use), as a traced step. */
export function loadGraph(ctx: PipelineContext): Promise<GraphIndex> {
  return ctx.step(
    'load-graph',
    () => partInTime(ctx, ctx.index.graph.get(), 'graph index'),
    (g) => ({ tuples: g.tuples.size, entities: g.entities.length, buildSeconds: round(g.buildSeconds, 2) }),
  );
}

/** Scored tuples as evidence items with their provenance. */
export const tupleItems = (ctx: PipelineContext, tuples: ScoredTuple[]): Evidence[] => tuples.map((h) => tupleEvidence(ctx.index, h.tuple, h.score, h.onPath));

/**
 * Where the graph and graph-keyword pipelines find candidate tuples: Neo4j when the service was given a source
 * (NEO4J_URI), else the embedded graph index.
 */
export async function candidateSource(ctx: PipelineContext): Promise<GraphCandidateSource> {
  if (!ctx.graphSource) return embeddedGraphSource(await loadGraph(ctx));
  const source = ctx.graphSource;
  return ctx.step(
    'load-graph',
    () => source(ctx.index),
    (s) => ({ source: s.kind }),
  );
}
