import { describe, expect, it } from 'vitest';
import { fixtureCorpus, fixtureTuples, indexOf, pagesOf } from '../../scripts/test-support/retrieval-fixtures.ts';
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

  it('lists under each term exactly the tuples holding it, by ordinal and ascending, as read back from the stored postings', async () => {
    const { nameEmbedder } = await indexOf(fixtureCorpus());
    const graph = graphIndexFrom(await storedGraphFromPages(pagesOf(fixtureTuples, 3), nameEmbedder));
    const expected = new Map<string, number[]>();
    graph.tupleIds.forEach((id, ordinal) => {
      for (const term of graph.tuples.get(id)!.terms) expected.set(term, [...(expected.get(term) ?? []), ordinal]);
    });
    expect(expected.size).toBeGreaterThan(10);
    expect(new Map([...graph.byTerm].map(([term, ordinals]) => [term, [...ordinals]]))).toEqual(expected);
  });
});
