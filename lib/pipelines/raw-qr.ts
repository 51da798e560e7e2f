import { paragraphEvidence } from '../retrieval/evidence.ts';
import { reformulatedSearch } from '../retrieval/search.ts';
import { definePipeline } from './types.ts';

export const rawQr = definePipeline({
  name: 'raw-qr',
  description: 'Query reformulation + hybrid BM25/dense over raw paragraphs',
  defaults: { k: 5 },
  async run(ctx) {
    const { hits, titleMatched } = await reformulatedSearch(ctx, 'raw', ctx.reformulator);
    return { evidence: hits.map((h) => paragraphEvidence(ctx, h)), titleMatched };
  },
});
