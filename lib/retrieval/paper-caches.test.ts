import { describe, expect, it, vi } from 'vitest';
import { perPaper } from './coverage.ts';
import type { RetrievalIndex } from './index.ts';
import { warmPaperCaches } from './paper-caches.ts';

const indexOf = (papers: number) => ({ papers: new Map(Array.from({ length: papers }, (_, i) => [`p${i}`, {}])) }) as unknown as RetrievalIndex;
const noSlice = async () => {};

describe('per-paper caches', () => {
  it('when full, let go of the paper cached first and keep the others', () => {
    const compute = vi.fn((_index: RetrievalIndex, paperId: string) => paperId.toUpperCase());
    const cached = perPaper(compute, 3);
    const index = indexOf(0);
    for (const id of ['a', 'b', 'c', 'd']) expect(cached(index, id)).toBe(id.toUpperCase());
    expect(compute).toHaveBeenCalledTimes(4);
    // b and c are still cached; a went to make room for d.
    cached(index, 'b');
    cached(index, 'c');
    cached(index, 'd');
    expect(compute).toHaveBeenCalledTimes(4);
    cached(index, 'a');
    expect(compute).toHaveBeenCalledTimes(5);
  });

  it('let go of the oldest tenth at once, so a full cache is not scanned for its first key on every paper', () => {
    const compute = vi.fn((_index: RetrievalIndex, paperId: string) => paperId);
    const cached = perPaper(compute, 20);
    const index = indexOf(0);
    for (let i = 0; i <= 20; i++) cached(index, `p${i}`);
    expect(compute).toHaveBeenCalledTimes(21);
    for (let i = 2; i <= 20; i++) cached(index, `p${i}`);
    expect(compute).toHaveBeenCalledTimes(21);
    cached(index, 'p0');
    cached(index, 'p1');
    expect(compute).toHaveBeenCalledTimes(23);
  });

  it('are warmed for as many papers as each keeps, not for papers it would let go of again', async () => {
    const small = vi.fn(() => 1);
    const large = vi.fn(() => 2);
    const caches = [perPaper(small, 2), perPaper(large, 5)];
    await warmPaperCaches(indexOf(8), noSlice, caches);
    expect(small).toHaveBeenCalledTimes(2);
    expect(large).toHaveBeenCalledTimes(5);
    // What was warmed is served from the cache.
    const index = indexOf(8);
    await warmPaperCaches(index, noSlice, caches);
    caches[1](index, 'p4');
    expect(large).toHaveBeenCalledTimes(10);
  });
});
