import { evidenceFromTuples } from '../retrieval/evidence.ts';
import { graphKeywordRetrieve } from '../retrieval/graph-search.ts';
import { PER_FURTHER_TUPLE } from '../retrieval/scoring.ts';
import { candidateSource, SHOWN_TUPLES, tupleItems } from './graph-steps.ts';
import { definePipeline } from './types.ts';

/** Method D's G-RAG: keyword lemmas select the tuples, within a context budget. */
export const graphKeyword = definePipeline({
  name: 'graph-keyword',
  label: 'Knowledge graph by keywords',
  line: "Material–property–value facts found by the question's keywords.",
  description: 'Knowledge-graph tuples selected by keyword lemmas (G-RAG)',
  defaults: { k: 5 },
  async run(ctx) {
    const source = await candidateSource(ctx);
    const r = await ctx.step(
      'keyword-selection',
      () => graphKeywordRetrieve(source, ctx.analysis.body),
      (x) => ({ keywords: x.keywords, tuples: x.hits.length }),
    );
    const { evidence, tuples } = evidenceFromTuples(ctx, r.hits, { perFurtherTuple: PER_FURTHER_TUPLE });
    return { evidence, extras: { kind: 'graph', graphEvidence: tupleItems(ctx, tuples.slice(0, SHOWN_TUPLES)) } };
  },
});
