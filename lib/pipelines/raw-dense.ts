import { denseParagraphs } from './paragraph-search.ts';
import { definePipeline } from './types.ts';

export const rawDense = definePipeline({
  name: 'raw-dense',
  description: 'Dense embeddings over raw paragraphs (conventional RAG baseline)',
  defaults: { k: 5 },
  run: (ctx) => denseParagraphs(ctx, 'raw', false),
});
