import { denseParagraphs } from './paragraph-search.ts';
import { definePipeline } from './types.ts';

export const rawDense = definePipeline({
  name: 'raw-dense',
  label: 'Paragraphs by meaning (RAG baseline)',
  line: 'Search by meaning over the paragraph text, as a conventional RAG system does.',
  description: 'Dense embeddings over raw paragraphs (conventional RAG baseline)',
  defaults: { k: 5 },
  run: (ctx) => denseParagraphs(ctx, 'raw', false),
});
