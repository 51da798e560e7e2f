import { embedQueries } from '../embedding/embedder.ts';
import { chunkEvidence } from '../retrieval/evidence.ts';
import { denseChunks } from '../retrieval/search.ts';
import { definePipeline } from './types.ts';

/** Method B's VectorRAG: dense search over paragraphs merged by paper and section, a chunk scored by its closest paragraph. */
export const vector = definePipeline({
  name: 'vector',
  label: 'Passages by meaning (VectorRAG)',
  line: 'Search by meaning over section-length passages.',
  description: 'Dense over section-merged chunks, k = 8 (VectorRAG)',
  defaults: { k: 8 },
  async run(ctx) {
    const [v] = await embedQueries(ctx.index.embedder, [ctx.question]);
    const hits = await ctx.step(
      'dense-chunks',
      () => denseChunks(ctx.index, v, ctx.k),
      (h) => ({ chunks: h.length }),
    );
    return { evidence: hits.map((h) => chunkEvidence(ctx, h)) };
  },
});
