import { describe, expect, it } from 'vitest';
import { fixtureCorpus, indexOf, pagesOf } from '../testing/retrieval-fixtures.ts';
import { graphIndexFrom, lazyGraphIndex, storedGraphFromPages, storedGraphIndex } from './graph-index.ts';

describe('graph index', () => {
  it('made in its stored form from pages of rows, is what storing the built index gives, and reads back as that index', async () => {
    const corpus = fixtureCorpus();
    const rows = await corpus.loadGraph();
    expect(rows.length).toBeGreaterThan(3);
    const { nameEmbedder } = await indexOf(corpus);
    const built = await lazyGraphIndex(async () => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1)), nameEmbedder).get();
    const stored = await storedGraphFromPages(pagesOf(rows, 2), nameEmbedder);
    expect({ ...stored, buildSeconds: 0 }).toEqual({ ...storedGraphIndex(built), buildSeconds: 0 });
    const read = graphIndexFrom(stored);
    expect([...read.tuples.keys()]).toEqual([...built.tuples.keys()]);
    expect(read.entities.map((e) => [e.key, e.label, e.tupleIds])).toEqual(built.entities.map((e) => [e.key, e.label, e.tupleIds]));
    expect([...read.byTerm]).toEqual([...built.byTerm]);
  });
});
