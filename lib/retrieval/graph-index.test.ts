import { describe, expect, it } from 'vitest';
import { fixtureCorpus, fixtureTuples, indexOf, pagesOf } from '../testing/retrieval-fixtures.ts';
import { graphIndexFrom, lazyGraphIndex, storedGraphFromPages, storedGraphIndex } from './graph-index.ts';

describe('graph index', () => {
  it('is the same made from pages of any size, and its stored form reads back as the index it was stored from', async () => {
    const corpus = fixtureCorpus();
    const rows = fixtureTuples;
    expect(rows.length).toBeGreaterThan(3);
    const { nameEmbedder } = await indexOf(corpus);
    const built = await lazyGraphIndex(pagesOf(rows, 1000), nameEmbedder).get();
    const stored = await storedGraphFromPages(pagesOf(rows, 2), nameEmbedder);
    expect({ ...stored, buildSeconds: 0 }).toEqual({ ...storedGraphIndex(built), buildSeconds: 0 });
    const read = graphIndexFrom(stored);
    expect([...read.tuples.keys()]).toEqual([...built.tuples.keys()]);
    expect(read.entities.map((e) => [e.key, e.label, e.tupleIds])).toEqual(built.entities.map((e) => [e.key, e.label, e.tupleIds]));
    expect([...read.byTerm]).toEqual([...built.byTerm]);
  });
});
