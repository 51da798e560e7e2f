import { reformulatedParagraphs } from './paragraph-search.ts';
import { definePipeline } from './types.ts';

export const jsonQr = definePipeline({
  name: 'json-qr',
  description: 'Query reformulation + hybrid over structured paragraphs + filters and boosts',
  defaults: { k: 5 },
  run: (ctx) => reformulatedParagraphs(ctx, 'json'),
});
