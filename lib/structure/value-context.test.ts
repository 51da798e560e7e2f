import { describe, expect, it } from 'vitest';
import { describePerformance } from './paragraph.ts';
import { parseQuantities } from './quantities.ts';
import { notAStatedValue } from './value-context.ts';

/** Why each quantity of an invented sentence is not a stated value (null: it may be one). */
const reasons = (s: string) => parseQuantities(s).map((q) => [q.text, notAStatedValue(s, q)]);
const claims = (s: string) => describePerformance(s, parseQuantities(s)).map((c) => `${c.material} ${c.property} ${c.canonical.join('–')}`);

describe('notAStatedValue', () => {
  it('names each class of number that is not a value of the property beside it', () => {
    expect(reasons('In NbSe2 the critical field Hc2(T = 0K) halves between 0 and 10 GPa.')[0]).toEqual(['0K', 'argument']);
    expect(reasons('In Nb3Sn the Tc is raised by about 2 K under strain.')[0]).toEqual(['2 K', 'change']);
    expect(reasons('Under strain the Tc of Nb3Sn is pushed up about 2 K.')[0]).toEqual(['2 K', 'change']);
    expect(reasons('The expansion of CaC6 shows a crossover at 11.5 K to positive values.')[0]).toEqual(['11.5 K', 'feature']);
    expect(reasons('The resistivity of CaC6 goes as T2 for Tc < T 150 K.')[0]).toEqual(['150 K', 'lost-inequality']);
    expect(reasons('The resistivity of CaC6 was measured down to 2 K.')[0]).toEqual(['2 K', 'bound']);
    expect(reasons('CaC6 pellets sintered at 900 °C were dense.')[0]).toEqual(['900 °C', 'processing']);
    expect(reasons('For CaC6, dTc/dP = 0.5 K/GPa.')[0][1]).toBe('rate');
  });

  it('leaves a value stated for its property alone, a maximum and a Tafel slope included', () => {
    expect(reasons('CaC6 becomes superconducting with Tc = 11.5 K.')[0]).toEqual(['11.5 K', null]);
    expect(reasons('The Tc of CaC6 rises to 15 K under pressure.')[0]).toEqual(['15 K', null]);
    expect(reasons('The Tc of CaC6 shows a broad maximum at 15 K near 8 GPa.')[0]).toEqual(['15 K', null]);
    expect(reasons('The NiFe-LDH electrode had a Tafel slope of 41 mV dec−1.')[0][1]).toBeNull();
  });
});

describe('describePerformance', () => {
  it('reads no claim from a bound, an argument, a change or a feature of a curve', () => {
    expect(claims('For NbSe2, Tc drops by a factor of 2 and Hc2(T = 0K) by a factor of 4 up to 20 GPa.')).toEqual([]);
    expect(claims('CaC6 shows a T2 resistivity in Tc < T 150 K.')).toEqual([]);
    expect(claims('In CaC6 the Tc is pushed up about 3 K by the coupling.')).toEqual([]);
  });

  it('gives a value to the material of its own clause, and none when that clause names its material in words', () => {
    // The claim stays in the record, owned by no formula (the graph makes no tuple of it): niobium's, not CaC6's.
    expect(claims('Niobium shows a small expansion below Tc = 9.2 K; in CaC6 the expansion is far larger.')).toEqual(['null critical temperature 9.2']);
    expect(claims('CaC6 becomes superconducting at Tc = 11.5 K; the expansion of graphite is small.')).toEqual(['CaC6 critical temperature 11.5']);
  });
});
