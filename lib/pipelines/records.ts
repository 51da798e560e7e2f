import { CANDIDATES, partInTime } from '../retrieval/context.ts';
import { facetCoverage } from '../retrieval/coverage.ts';
import { recordEvidence } from '../retrieval/evidence.ts';
import { RECORD_COVERAGE_BOOST } from '../retrieval/scoring.ts';
import { structuredTerms } from '../structure/terms.ts';
import { definePipeline } from './types.ts';

/** BM25 over the imported structured records (recipes, experiments), boosted by facet coverage. */
export const records = definePipeline({
  name: 'records',
  label: 'Imported records',
  line: 'Keyword search over the imported synthesis recipes and experiment rows.',
  description: 'BM25 over imported structured records + structured boosts',
  defaults: { k: 5 },
  async run(ctx) {
    const { optimised } = await ctx.plan();
    const recordIndex = await partInTime(ctx, ctx.index.records.get(), 'records index');
    const lexical = await ctx.step(
      'bm25-records',
      () => recordIndex.lexical.query(structuredTerms(optimised.query), { limit: CANDIDATES }),
      (h) => ({ candidates: h.length }),
    );
    // Each candidate read once: a record is read from the index's file on every read (record-file.ts).
    const all = new Map(lexical.map((h) => [h.id, recordIndex.records.get(h.id)!]));
    const reranked = await ctx.step(
      'structured-boosts',
      () =>
        lexical
          .map((h) => ({ id: h.id, score: h.score * (1 + RECORD_COVERAGE_BOOST * (facetCoverage(ctx.analysis, all.get(h.id)!.facets).coverage ?? 0)) }))
          .sort((a, b) => b.score - a.score),
      (h) => ({ top: h.slice(0, 5).map((x) => all.get(x.id)!.title) }),
    );
    const evidence = reranked.map((h) => recordEvidence(ctx, all.get(h.id)!, h.score));
    return { evidence, recordFacets: new Map(reranked.map((h, i) => [evidence[i].id, all.get(h.id)!.facets])) };
  },
});
