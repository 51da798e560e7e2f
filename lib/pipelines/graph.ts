import { paragraphsFromTuples } from '../retrieval/evidence.ts';
import { graphRetrieve } from '../retrieval/graph-search.ts';
import { rulesReformulator } from '../retrieval/reformulate.ts';
import { titleFilter } from '../retrieval/search.ts';
import { candidateSource, SHOWN_TUPLES, tupleItems } from './graph-steps.ts';
import { definePipeline } from './types.ts';

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
    const source = await candidateSource(ctx);
    const optimised = await rulesReformulator.optimise(ctx.analysis.question, ctx.analysis);
    const titlePaper = await titleFilter(ctx);
    const hits = await graphRetrieve(source, ctx.analysis, optimised.query, (t) => ctx.index.embedder.embed(t), ctx.step, ctx.tupleReranker, titlePaper);
    const { evidence, tuples } = paragraphsFromTuples(ctx, hits, 0.05);
    return { evidence, extras: { kind: 'graph', graphEvidence: tupleItems(ctx, tuples.slice(0, SHOWN_TUPLES)) } };
  },
});
