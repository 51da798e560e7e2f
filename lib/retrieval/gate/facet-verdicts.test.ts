import { describe, expect, it } from 'vitest';
import { parseQuantities } from '../../structure/quantities.ts';
import { textFacets } from '../../structure/terms.ts';
import { quantityFacet } from '../facets.ts';
import { statedInstead } from './facet-verdicts.ts';

const facetsOf = (text: string) => {
  const f = textFacets(text);
  return { materials: new Set<string>(), properties: new Set(f.properties), quantities: f.quantities.map(quantityFacet) };
};

describe('what the closest paper states instead of a value it does not state of what is asked', () => {
  it('says the asked value is stated of something else, rather than listing it as another value', () => {
    const facets = facetsOf('The pellets were sintered at 600 degC, and the conductivity was measured at 700 and 800 degC.');
    expect(statedInstead(facets, parseQuantities('600 °C'))).toBe(' as a value of what is asked (it states 600 degC of something else)');
  });

  it('lists the values of the same dimension it states when none is the asked one', () => {
    const facets = facetsOf('The conductivity was measured at 700 and 800 degC.');
    expect(statedInstead(facets, parseQuantities('600 °C'))).toMatch(/^ \(it states 700 and 800 degC\)$/);
    expect(statedInstead(facetsOf('No values here.'), parseQuantities('600 °C'))).toBe('');
  });
});
