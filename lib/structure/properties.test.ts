import { describe, expect, it } from 'vitest';
import { findProperties } from './properties.ts';

const found = (text: string) => findProperties(text).map((p) => [p.key, p.text]);

describe('findProperties', () => {
  it('finds phrases only where a word starts and ends, whatever the case', () => {
    expect(found('Superconductivity and the photoconductivity were measured.')).toEqual([]);
    expect(found('the semi-conductivity of films')).toEqual([]);
    expect(found('Its Ionic Conductivity exceeds the thicknesses quoted.')).toEqual([['conductivity', 'Ionic Conductivity']]);
  });
  it('skips a match inside a word and still finds the next one in the same word run', () => {
    // "xthickness" is no property, the "thickness" right after the space is.
    expect(found('xthickness thickness')).toEqual([['thickness', 'thickness']]);
  });
  it('prefers the longest phrase and reads phrases across line breaks', () => {
    expect(found('a specific\nsurface area of 40 m2/g')).toEqual([['surface-area', 'specific\nsurface area']]);
  });
  it('matches the case-sensitive abbreviations only as written', () => {
    expect(found('The OCV was 1.1 V; an ocv is not one.')).toEqual([['open-circuit-voltage', 'OCV']]);
  });
});
