import { describe, expect, it } from 'vitest';
import v8 from 'node:v8';
import { internStrings } from './intern.ts';

describe('internStrings', () => {
  it('keeps every value, key, shared reference and typed array of a deserialised structure', () => {
    const shared = new Set(['a', 'b']);
    const original = {
      rows: [
        { relation: 'has_property', value: 1.5 },
        { relation: 'has_property', value: null },
      ],
      byTerm: new Map([
        ['yield', ['t1', 't2']],
        ['light', ['t2']],
      ]),
      left: shared,
      right: shared,
      vectors: new Float32Array([1, 2, 3]),
      long: 'x'.repeat(2000),
    };
    const copy = v8.deserialize(v8.serialize(original)) as typeof original;
    const out = internStrings(copy);
    expect(out).toBe(copy);
    expect(out).toEqual(original);
    expect(out.left).toBe(out.right);
    expect([...out.byTerm.keys()]).toEqual(['yield', 'light']);
    expect(out.vectors).toBeInstanceOf(Float32Array);
  });

  it('survives cycles and leaves class instances other than Map and Set as they are', () => {
    class Box {
      constructor(public label: string) {}
    }
    const a: { self?: unknown; box: Box; label: string } = { box: new Box('kept'), label: 'x' };
    a.self = a;
    expect(internStrings(a)).toBe(a);
    expect(a.box.label).toBe('kept');
  });
});
