import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { packRows, unpackRows } from './packed-rows.ts';

const rows = [
  { id: 't1', label: 'LSCF', value: 0.5, max: null, causal: true, terms: new Set(['lscf', 'cathode']), words: ['a'], q: [{ d: 'temperature', v: [873] }] },
  { id: 't2', label: null, value: -0, max: 2, causal: false, terms: new Set<string>(), words: [], q: [] },
  { id: 't3', label: 'LSCF', value: Number.NaN, max: 3.25, causal: false, terms: new Set(['cathode']), words: ['a', 'b'], q: [] },
];

describe('packed rows', () => {
  it('give back equal rows, keys in order, through V8’s serializer', () => {
    const back = unpackRows<(typeof rows)[number]>(v8.deserialize(v8.serialize(packRows(rows))));
    expect(back).toEqual(rows);
    expect(back.map((r) => Object.keys(r))).toEqual(rows.map((r) => Object.keys(r)));
    expect(Object.is(back[1].value, -0)).toBe(true);
    expect(back[1].terms).toBeInstanceOf(Set);
  });

  it('pack each kind of column compactly and keep one copy of each distinct string', () => {
    const packed = packRows(rows);
    expect(packed.columns.map((c) => c.kind)).toEqual(['string', 'string', 'number', 'number', 'boolean', 'stringSet', 'stringArray', 'plain']);
    // One entry per distinct string (rows then share it: the deserializer alone gives each occurrence its own copy).
    expect(packed.strings).toEqual(['t1', 't2', 't3', 'LSCF', 'lscf', 'cathode', 'a', 'b']);
  });

  it('keep rows of mixed shapes as they are', () => {
    const mixed = [{ a: 1 }, { b: 2 }, { a: 3, b: 4 }];
    const packed = packRows(mixed);
    expect(packed.columns).toEqual([]);
    expect(unpackRows(v8.deserialize(v8.serialize(packed)))).toEqual(mixed);
    expect(unpackRows(packRows([]))).toEqual([]);
  });
});
