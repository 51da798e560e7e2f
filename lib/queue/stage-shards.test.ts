import { describe, expect, it } from 'vitest';
import { planShards } from './stage-shards.ts';

describe('planShards', () => {
  it('cuts the papers into consecutive ranges of about the size asked, never splitting a paper, skipping papers with nothing to do', () => {
    const papers = [
      { id: 'a', size: 3 },
      { id: 'b', size: 0 },
      { id: 'c', size: 2 },
      { id: 'd', size: 6 },
      { id: 'e', size: 1 },
      { id: 'f', size: 0 },
    ];
    expect(planShards(papers, 5)).toEqual([['a', 'c'], ['d'], ['e']]);
    expect(planShards(papers, 100)).toEqual([['a', 'c', 'd', 'e']]);
    expect(
      planShards(
        papers.map((p) => ({ ...p, size: 0 })),
        5,
      ),
    ).toEqual([]);
  });
});
