import { embedQueries } from '../embedding/embedder.ts';
import { evidenceFromTuples } from '../retrieval/evidence.ts';
import { graphRetrieve } from '../retrieval/graph-search.ts';
import { GROUP_COVERAGE_WEIGHT, PER_FURTHER_TUPLE } from '../retrieval/scoring.ts';
import { candidateSource, SHOWN_TUPLES, tupleItems } from './graph-steps.ts';
import { definePipeline } from './types.ts';

/** Paragraphs nearest the question whose tuples enter the graph search (graph-search.ts, dense entry). */
const ENTRY_PARAGRAPHS = 20;

/**
 * Method B's GraphRAG: tuples retrieved and ranked (retrieval/graph-search.ts); their provenance turns them into
 * evidence — the paragraph they were read from, or the imported record they were drawn from — scored by
 * `evidenceFromTuples` with the graph weights of retrieval/scoring.ts, so papers, values and abstention work
 * exactly as for the other pipelines.
 */
export const graph = definePipeline({
  name: 'graph',
  label: 'Knowledge graph',
  line: 'Material–property–value facts and the paths between them, with the sentence each came from.',
  description: 'Knowledge-graph tuples: string + canonical retrieval, re-ranking, multi-hop paths (GraphRAG)',
  defaults: { k: 5 },
  async run(ctx) {
    const source = await candidateSource(ctx);
    const { optimised, titlePaper } = await ctx.plan();
    const entry = embedQueries(ctx.index.embedder, [ctx.question]).then(([v]) => ctx.index.json.dense.query(v, ENTRY_PARAGRAPHS));
    // Awaited inside the graph search; should that fail first, the entry's own failure is not left unhandled.
    entry.catch(() => {});
    const { hits, keywordWeights } = await graphRetrieve(source, ctx.analysis, optimised.query, {
      embedLabels: (t) => ctx.index.nameEmbedder.embed(t),
      step: ctx.step,
      reranker: ctx.tupleReranker,
      titlePaper,
      entry,
    });
    const { evidence, tuples } = evidenceFromTuples(ctx, hits, { perFurtherTuple: PER_FURTHER_TUPLE, keywordWeights, coverageWeight: GROUP_COVERAGE_WEIGHT });
    return { evidence, extras: { kind: 'graph', graphEvidence: tupleItems(ctx, tuples.slice(0, SHOWN_TUPLES)) } };
  },
});
