import { reformulatedParagraphs } from './paragraph-search.ts';
import { definePipeline } from './types.ts';

export const rawQr = definePipeline({
  name: 'raw-qr',
  label: 'Paragraphs, question rewritten',
  line: 'The question rewritten, then keyword search over the paragraph text.',
  description: "Query reformulation + BM25 on the question (hybrid BM25/dense for a model's query and sub-queries) over raw paragraphs",
  defaults: { k: 5 },
  run: (ctx) => reformulatedParagraphs(ctx, 'raw'),
});
