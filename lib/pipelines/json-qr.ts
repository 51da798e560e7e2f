import { reformulatedParagraphs } from './paragraph-search.ts';
import { definePipeline } from './types.ts';

export const jsonQr = definePipeline({
  name: 'json-qr',
  label: 'Paragraph facts',
  line: 'The question rewritten, then keyword search over paragraphs with their extracted materials, values and methods.',
  description: "Query reformulation + BM25 on the question (hybrid for a model's query and sub-queries) over structured paragraphs + filters and boosts",
  defaults: { k: 5 },
  run: (ctx) => reformulatedParagraphs(ctx, 'json'),
});
