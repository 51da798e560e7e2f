import { evidenceFromTuples } from '../retrieval/evidence.ts';
import { graphRetrieve } from '../retrieval/graph-search.ts';
import { rulesReformulator } from '../retrieval/reformulate.ts';
import { titleFilter } from '../retrieval/search.ts';
import { candidateSource, SHOWN_TUPLES, tupleItems } from './graph-steps.ts';
import { definePipeline } from './types.ts';

/**
 * Method B's GraphRAG: tuples retrieved and ranked (retrieval/graph-search.ts); their provenance turns them into
 * evidence — the paragraph they were read from, or the imported record they were drawn from — scoring as its best
 * tuple (+ 0.05 per further tuple) plus 0.3 × the share of the question's keywords (IDF-weighted) its best tuples
 * hold together, so papers, values and abstention work exactly as for the other pipelines.
 */
/** How much a paragraph's (or record's) joint coverage of the question adds to its best tuple's score (0–1). */
const GROUP_COVERAGE_WEIGHT = 0.3;

export const graph = definePipeline({
  name: 'graph',
  description: 'Knowledge-graph tuples: string + canonical retrieval, re-ranking, multi-hop paths (GraphRAG)',
  defaults: { k: 5 },
  async run(ctx) {
    const source = await candidateSource(ctx);
    const optimised = await rulesReformulator.optimise(ctx.analysis.question, ctx.analysis);
    const titlePaper = await titleFilter(ctx);
    const { hits, keywordWeights } = await graphRetrieve(
      source,
      ctx.analysis,
      optimised.query,
      (t) => ctx.index.embedder.embed(t),
      ctx.step,
      ctx.tupleReranker,
      titlePaper,
    );
    const { evidence, tuples } = evidenceFromTuples(ctx, hits, { perFurtherTuple: 0.05, keywordWeights, coverageWeight: GROUP_COVERAGE_WEIGHT });
    return { evidence, extras: { kind: 'graph', graphEvidence: tupleItems(ctx, tuples.slice(0, SHOWN_TUPLES)) } };
  },
});
