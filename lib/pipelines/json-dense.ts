import { denseParagraphs } from './paragraph-search.ts';
import { definePipeline } from './types.ts';

export const jsonDense = definePipeline({
  name: 'json-dense',
  description: 'Dense embeddings over structured paragraphs + structured boosts',
  defaults: { k: 5 },
  run: (ctx) => denseParagraphs(ctx, 'json', true),
});
