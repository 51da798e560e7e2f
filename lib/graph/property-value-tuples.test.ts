import { describe, expect, it } from 'vitest';
import { propertyValueTuples } from './property-value-tuples.ts';

const read = (s: string) => propertyValueTuples(s, 0, s.length, null, { named: [] }).map((t) => `${t.subject.surface} ${t.object.key} ${t.value}`);

describe('propertyValueTuples', () => {
  it('reads no value past an inequality: a bound of a range the property opens is not its value', () => {
    // Invented in the way PDF extraction leaves such sentences.
    expect(read('The compound MgB 2 shows a T 2 behaviour of its resistivity in T c < T 240 K, as the oxide does.')).toEqual([]);
    expect(read('The MgB2 wires become superconducting with Tc = 39 K.')).toEqual(['MgB2 p:critical-temperature 39']);
  });

  // Invented sentences, one per class a newcomer found on /graph.
  it('reads no value from a property’s argument, a bound of where a behaviour was seen, or a processing temperature', () => {
    expect(read('For NbSe2 the upper critical field Hc2(T = 0 K) falls above 5 GPa, while Tc rises.')).toEqual([]);
    expect(read('The compound MgB2 shows Tc = 39 K and a T2 dependence of the resistivity up to 240 K.')).toEqual(['MgB2 p:critical-temperature 39']);
    expect(read('The Nb3Sn film was measured down to 2 K.')).toEqual([]);
    expect(read('MgB2 fibres reacted at 900 °C for 2 h showed the onset of superconductivity.')).toEqual([]);
    // A bound that is the claim stays: "Tc up to 40 K".
    expect(read('In the films, the Tc of LaFeAsO rises up to 40 K under pressure.')).toEqual(['LaFeAsO p:critical-temperature 40']);
  });

  it('gives a value to the material its clause names in words, not to the one the paragraph was about', () => {
    const topic = { named: [] as ReturnType<typeof propertyValueTuples>[number]['subject'][] };
    propertyValueTuples('The MgB2 crystals show Tc = 39 K.', 0, 33, null, topic);
    expect(topic.named.map((m) => m.surface)).toEqual(['MgB2']);
    const s = 'Tantalum shows a slight negative expansion at its Tc = 4.4 K; in MgB2 the expansion is eight times larger.';
    expect(propertyValueTuples(s, 0, s.length, null, topic)).toEqual([]);
  });
});
