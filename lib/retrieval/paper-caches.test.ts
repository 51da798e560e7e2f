import { describe, expect, it } from 'vitest';
import { fixtureCorpus, indexOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import { plainTerms } from '../structure/terms.ts';
import { statedTerms, warmPaperCaches } from './paper-caches.ts';

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

describe('statedTerms', () => {
  it("says which words each paragraph and the paper state, as the paragraphs' own terms and the title's do", async () => {
    const index = await indexOf(fixtureCorpus());
    for (const [paperId, paper] of index.papers) {
      const own = paper.paragraphIds.map((id) => new Set(plainTerms(index.paragraphs.get(id)!.text)));
      const words = [...new Set([...own.flatMap((t) => [...t].slice(0, 3)), ...paper.titleTerms.slice(0, 2), 'zirconolite', 'nowhere'])];
      const stated = statedTerms(index, paperId, words);
      expect(stated.inParagraphs.map((s) => [...s].sort())).toEqual(own.map((t) => words.filter((w) => t.has(w)).sort()));
      expect([...stated.inPaper].sort()).toEqual(words.filter((w) => paper.titleTerms.includes(w) || own.some((t) => t.has(w))).sort());
    }
  });
});
