import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from './fusion.ts';

describe('reciprocalRankFusion', () => {
  it('rewards documents ranked well by both lists, ignoring score scales', () => {
    const lexical = [
      { id: 'a', score: 40 },
      { id: 'b', score: 30 },
      { id: 'c', score: 1 },
    ];
    const dense = [
      { id: 'b', score: 0.9 },
      { id: 'c', score: 0.8 },
      { id: 'a', score: 0.1 },
    ];
    const fused = reciprocalRankFusion([{ hits: lexical }, { hits: dense }]);
    expect(fused.map((h) => h.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0].score).toBeCloseTo(1 / 62 + 1 / 61, 10);
  });
  it('weights lists and includes documents found by one list only', () => {
    const fused = reciprocalRankFusion([{ hits: [{ id: 'x', score: 1 }], weight: 2 }, { hits: [{ id: 'y', score: 1 }] }]);
    expect(fused.map((h) => h.id)).toEqual(['x', 'y']);
    expect(fused[0].score).toBeCloseTo(2 / 61, 10);
  });
});
