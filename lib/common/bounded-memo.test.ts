import { describe, expect, it } from 'vitest';
import { boundedMemo } from './bounded-memo.ts';

describe('boundedMemo', () => {
  it('computes each argument once, null results included, and empties itself past its limit', () => {
    const calls: string[] = [];
    const length = boundedMemo((s: string) => {
      calls.push(s);
      return s === 'none' ? null : s.length;
    }, 3);
    expect([length('ab'), length('ab'), length('none'), length('none')]).toEqual([2, 2, null, null]);
    expect(calls).toEqual(['ab', 'none']);
    length('abc');
    expect(length.size).toBe(3);
    // The fourth distinct argument empties the memory; what was kept is computed again when asked.
    length('abcd');
    expect(length.size).toBe(1);
    length('ab');
    expect(calls).toEqual(['ab', 'none', 'abc', 'abcd', 'ab']);
    length.clear();
    expect(length.size).toBe(0);
  });
});
