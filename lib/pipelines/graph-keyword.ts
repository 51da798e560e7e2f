import { round } from '../common/trace.ts';
import { paragraphsFromTuples, tupleEvidence } from '../retrieval/evidence.ts';
import { graphKeywordRetrieve } from '../retrieval/graph-search.ts';
import { SHOWN_TUPLES } from './graph.ts';
import { definePipeline } from './types.ts';

/** Method D's G-RAG: keyword lemmas select the tuples, within a context budget. */
export const graphKeyword = definePipeline({
  name: 'graph-keyword',
  description: 'Knowledge-graph tuples selected by keyword lemmas (G-RAG)',
  defaults: { k: 5 },
  async run(ctx) {
    const g = await ctx.step(
      'load-graph',
      () => ctx.index.graph.get(),
      (x) => ({ tuples: x.tuples.size, entities: x.entities.length, buildSeconds: round(x.buildSeconds, 2) }),
    );
    const r = await ctx.step(
      'keyword-selection',
      () => graphKeywordRetrieve(g, ctx.analysis.body),
      (x) => ({ keywords: x.keywords, tuples: x.hits.length }),
    );
    const { evidence, tuples } = paragraphsFromTuples(ctx, r.hits, 0.05);
    return {
      evidence,
      extras: { kind: 'graph', graphEvidence: tuples.slice(0, SHOWN_TUPLES).map((h) => tupleEvidence(ctx.index, h.tuple, h.score, h.onPath)) },
    };
  },
});
