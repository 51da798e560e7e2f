import { describe, expect, it } from 'vitest';
import { fixtureCorpus, indexOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import { warmPaperCaches } from './paper-caches.ts';

describe('warming the paper caches', () => {
  it('reads as many papers as the caches keep, not more', async () => {
    const index = await indexOf(fixtureCorpus());
    expect(index.papers.size).toBeGreaterThan(3);
    const read = new Set<string>();
    const get = index.papers.get.bind(index.papers);
    index.papers.get = (id: string) => {
      read.add(id);
      return get(id);
    };
    await warmPaperCaches(index, async () => {}, 2);
    expect([...read]).toEqual([...index.papers.keys()].slice(0, 2));
    // With the default limit every paper of a small corpus is warmed: those not cached yet are read now.
    read.clear();
    await warmPaperCaches(index, async () => {});
    expect([...read]).toEqual([...index.papers.keys()].slice(2));
  });
});
