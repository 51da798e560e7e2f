import { paragraphEvidence } from '../retrieval/evidence.ts';
import { reformulatedSearch } from '../retrieval/search.ts';
import { definePipeline } from './types.ts';

export const jsonQr = definePipeline({
  name: 'json-qr',
  description: 'Query reformulation + hybrid over structured paragraphs + filters and boosts',
  defaults: { k: 5 },
  async run(ctx) {
    const { hits, titleMatched } = await reformulatedSearch(ctx, 'json', ctx.reformulator);
    return { evidence: hits.map((h) => paragraphEvidence(ctx, h)), titleMatched };
  },
});
