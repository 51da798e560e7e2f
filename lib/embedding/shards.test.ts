import { describe, expect, it } from 'vitest';
import { planShards } from './shards.ts';

describe('planShards', () => {
  it('cuts the papers to embed into consecutive ranges of about the size asked, never splitting a paper, skipping papers already embedded', () => {
    const papers = [
      { id: 'a', missing: 3 },
      { id: 'b', missing: 0 },
      { id: 'c', missing: 2 },
      { id: 'd', missing: 6 },
      { id: 'e', missing: 1 },
      { id: 'f', missing: 0 },
    ];
    expect(planShards(papers, 5)).toEqual([['a', 'c'], ['d'], ['e']]);
    expect(planShards(papers, 100)).toEqual([['a', 'c', 'd', 'e']]);
    expect(
      planShards(
        papers.map((p) => ({ ...p, missing: 0 })),
        5,
      ),
    ).toEqual([]);
  });
});
