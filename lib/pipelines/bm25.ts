import { plainBm25Paragraphs } from './paragraph-search.ts';
import { definePipeline } from './types.ts';

export const bm25 = definePipeline({
  name: 'bm25',
  label: 'Keyword search (baseline)',
  line: 'Plain keyword search over the paragraphs, the question as typed.',
  description: 'Plain BM25 over raw paragraphs, question as typed (baseline)',
  defaults: { k: 5 },
  run: (ctx) => plainBm25Paragraphs(ctx),
});
