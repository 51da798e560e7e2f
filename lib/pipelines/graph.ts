import { round } from '../common/trace.ts';
import { paragraphsFromTuples, tupleEvidence } from '../retrieval/evidence.ts';
import { graphRetrieve } from '../retrieval/graph-search.ts';
import { rulesReformulator } from '../retrieval/reformulate.ts';
import { definePipeline } from './types.ts';

/** Tuples shown with a graph pipeline's result (best first). */
export const SHOWN_TUPLES = 50;

/**
 * Method B's GraphRAG: tuples retrieved and ranked (retrieval/graph-search.ts); their provenance turns them into
 * paragraph evidence, a paragraph scoring as its best tuple (+ 0.05 per further tuple), so papers, values and
 * abstention work exactly as for the other pipelines.
 */
export const graph = definePipeline({
  name: 'graph',
  description: 'Knowledge-graph tuples: string + canonical retrieval, re-ranking, multi-hop paths (GraphRAG)',
  defaults: { k: 5 },
  async run(ctx) {
    const g = await ctx.step(
      'load-graph',
      () => ctx.index.graph.get(),
      (x) => ({ tuples: x.tuples.size, entities: x.entities.length, buildSeconds: round(x.buildSeconds, 2) }),
    );
    const optimised = await rulesReformulator.optimise(ctx.analysis.question, ctx.analysis);
    const hits = await graphRetrieve(g, ctx.analysis, optimised.query, (t) => ctx.index.embedder.embed(t), ctx.step, ctx.tupleReranker);
    const { evidence, tuples } = paragraphsFromTuples(ctx, hits, 0.05);
    return {
      evidence,
      extras: { kind: 'graph', graphEvidence: tuples.slice(0, SHOWN_TUPLES).map((h) => tupleEvidence(ctx.index, h.tuple, h.score, h.onPath)) },
    };
  },
});
