import { describe, expect, it } from 'vitest';
import { propertyValueTuples } from './property-value-tuples.ts';

const read = (s: string) => propertyValueTuples(s, 0, s.length, null, { named: [] }).map((t) => `${t.subject.surface} ${t.object.key} ${t.value}`);

describe('propertyValueTuples', () => {
  it('reads no value past an inequality: a bound of a range the property opens is not its value', () => {
    // Invented in the way PDF extraction leaves such sentences.
    expect(read('The compound MgB 2 shows a T 2 behaviour of its resistivity in T c < T 240 K, as the oxide does.')).toEqual([]);
    expect(read('The MgB2 wires become superconducting with Tc = 39 K.')).toEqual(['MgB2 p:critical-temperature 39']);
  });
});
