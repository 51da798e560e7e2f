import { denseParagraphs } from './paragraph-search.ts';
import { definePipeline } from './types.ts';

export const jsonDense = definePipeline({
  name: 'json-dense',
  label: 'Paragraph facts, by meaning',
  line: 'Search by meaning over paragraphs with the materials, values and methods extracted from them.',
  description: 'Dense embeddings over structured paragraphs + structured boosts',
  defaults: { k: 5 },
  run: (ctx) => denseParagraphs(ctx, 'json', true),
});
