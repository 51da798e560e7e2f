import { describe, expect, it } from 'vitest';
import type { IndexedTuple } from '../graph-index.ts';
import { countTermMatches, type GraphCandidateSource } from '../graph-source.ts';
import { cachedGraphSource } from './cached.ts';

/** A source over a fixed table of postings that counts what it is asked. */
function countingSource(postings: Record<string, string[]>) {
  const asked: string[] = [];
  const entity: Record<string, string[]> = { 'm:TiO2': ['t1', 't2'], 'p:band-gap': ['t2', 't3'] };
  const tuple = (id: string) =>
    ({ id, subjectLabel: 'TiO2', objectLabel: 'band gap', sentence: `sentence of ${id}`, terms: ['tio2'] }) as unknown as IndexedTuple;
  const source: GraphCandidateSource = {
    kind: 'neo4j',
    tupleCount: async () => {
      asked.push('count');
      return 3;
    },
    async termPostings(terms, max) {
      asked.push(`terms ${terms.join(',')}`);
      return new Map(terms.filter((t) => postings[t] && postings[t].length <= max).map((t) => [t, postings[t]]));
    },
    async termMatches(terms, max, min) {
      return countTermMatches(await this.termPostings(terms, max), min);
    },
    async entityTuples(keys) {
      asked.push(`entities ${keys.join(',')}`);
      return new Map(keys.filter((k) => entity[k]).map((k) => [k, entity[k]]));
    },
    async similarEntities(probes) {
      asked.push(`similar ${probes.length}`);
      return probes.map((p) => ({ key: p[0] > 0.5 ? 'm:TiO2' : 'p:band-gap', cosine: p[0], tupleIds: ['t1'] }));
    },
    async pathTuples(from, to) {
      asked.push(`path ${from} ${to}`);
      return ['t2'];
    },
    async paperTuples(paper) {
      asked.push(`paper ${paper}`);
      return ['t1'];
    },
    async paragraphTuples(ids) {
      asked.push(`paragraphs ${ids.join(',')}`);
      return ['t3'];
    },
    async tuples(ids) {
      asked.push(`tuples ${ids.join(',')}`);
      return new Map(ids.filter((id) => id !== 'missing').map((id) => [id, tuple(id)]));
    },
  };
  return { source, asked };
}

describe('a graph source remembered in the process', () => {
  it("answers as its source does, in the source's order, and asks it only for what it has not answered", async () => {
    const { source, asked } = countingSource({ tio2: ['t1', 't2'], gap: ['t2', 't3'], common: ['t1', 't2', 't3'] });
    const cached = cachedGraphSource(source, { maxBytes: 1 << 20, version: async () => 'v1' });
    expect(await cached.termPostings(['tio2', 'common', 'gap'], 2)).toEqual(await source.termPostings(['tio2', 'common', 'gap'], 2));
    asked.length = 0;
    // Only the new term is asked; the one over the cap is remembered as having none.
    const got = await cached.termMatches(['gap', 'tio2', 'common', 'oxide'], 2, 2);
    expect(asked).toEqual(['terms oxide']);
    expect(got).toEqual(
      countTermMatches(
        new Map([
          ['gap', ['t2', 't3']],
          ['tio2', ['t1', 't2']],
        ]),
        2,
      ),
    );
    expect(await cached.entityTuples(['p:band-gap', 'm:None', 'm:TiO2'])).toEqual(
      new Map([
        ['p:band-gap', ['t2', 't3']],
        ['m:TiO2', ['t1', 't2']],
      ]),
    );
    asked.length = 0;
    await cached.entityTuples(['m:TiO2', 'm:None']);
    const tuples = await cached.tuples(['t1', 'missing', 't2']);
    expect([...tuples.keys()]).toEqual(['t1', 't2']);
    await cached.tuples(['t2', 't1', 'missing']);
    expect(await cached.pathTuples('m:TiO2', 'p:band-gap', 3, 20)).toEqual(['t2']);
    await cached.pathTuples('m:TiO2', 'p:band-gap', 3, 20);
    expect(asked).toEqual(['tuples t1,missing,t2', 'path m:TiO2 p:band-gap']);
    expect(cached.cacheStats()).toMatchObject({ version: 'v1' });
    expect(cached.cacheStats().hits).toBeGreaterThan(0);
  });

  it('merges probes as the source does (best cosine per entity), asking once per probe it has not seen', async () => {
    const { source, asked } = countingSource({});
    const cached = cachedGraphSource(source, { maxBytes: 1 << 20, version: async () => 'v1' });
    const a = Float32Array.of(0.9, 0.1);
    const b = Float32Array.of(0.8, 0.2);
    const c = Float32Array.of(0.3, 0.7);
    const merged = await cached.similarEntities([a, b, c, new Float32Array(2)], 0.2);
    expect(merged.sort((x, y) => (x.key < y.key ? -1 : 1))).toEqual([
      { key: 'm:TiO2', cosine: expect.closeTo(0.9, 6), tupleIds: ['t1'] },
      { key: 'p:band-gap', cosine: expect.closeTo(0.3, 6), tupleIds: ['t1'] },
    ]);
    asked.length = 0;
    await cached.similarEntities([b, Float32Array.of(0.6, 0.4)], 0.2);
    expect(asked).toEqual(['similar 1']);
  });

  it('forgets everything when the graph has a new version, and keeps nothing asked across the change', async () => {
    const { source, asked } = countingSource({ tio2: ['t1'] });
    let version = 'v1';
    const cached = cachedGraphSource(source, { maxBytes: 1 << 20, version: async () => version, checkEveryMs: 0 });
    await cached.termPostings(['tio2'], 10);
    await cached.tupleCount();
    asked.length = 0;
    await cached.termPostings(['tio2'], 10);
    expect(asked).toEqual([]);
    version = 'v2';
    await cached.termPostings(['tio2'], 10);
    await cached.tupleCount();
    expect(asked).toEqual(['terms tio2', 'count']);
    expect(cached.cacheStats().version).toBe('v2');
  });

  it('holds no more than its bound, the least recently used out first', async () => {
    const postings = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`term${i}`, Array.from({ length: 20 }, (_, j) => `t${i}-${j}`)]));
    const { source, asked } = countingSource(postings);
    const maxBytes = 20_000;
    const cached = cachedGraphSource(source, { maxBytes, version: async () => 'v1' });
    await cached.termPostings(['term0'], 100);
    for (let i = 1; i < 50; i++) {
      await cached.termPostings([`term${i}`], 100);
      await cached.termPostings(['term0'], 100); // kept recent
      expect(cached.cacheStats().bytes).toBeLessThanOrEqual(maxBytes);
    }
    asked.length = 0;
    await cached.termPostings(['term0', 'term49', 'term1'], 100);
    expect(asked).toEqual(['terms term1']);
  });
});
