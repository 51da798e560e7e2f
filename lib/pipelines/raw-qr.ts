import { reformulatedParagraphs } from './paragraph-search.ts';
import { definePipeline } from './types.ts';

export const rawQr = definePipeline({
  name: 'raw-qr',
  description: 'Query reformulation + hybrid BM25/dense over raw paragraphs',
  defaults: { k: 5 },
  run: (ctx) => reformulatedParagraphs(ctx, 'raw'),
});
