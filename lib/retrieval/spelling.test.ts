import { describe, expect, it } from 'vitest';
import { correctSpelling, editDistance, learnVocabulary } from './spelling.ts';

const vocabulary = learnVocabulary([
  'Superconductivity in layered cobalt oxyhydrate. The superconductivity was confirmed by resistivity.',
  'Photocatalytic reduction of CO2; the reduction rate doubled. Hydrothermal growth, hydrothermal route.',
]);

describe('spelling', () => {
  it('counts transpositions as one edit', () => {
    expect(editDistance('reduciton', 'reduction', 2)).toBe(1);
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
  });
  it('corrects ordinary words to the nearest corpus word and keeps the case of the first letter', () => {
    const r = correctSpelling(vocabulary, 'Supercondutivity of cobalt oxyhydrate; CO2 reducton by hydrotermal route');
    expect(r.text).toBe('Superconductivity of cobalt oxyhydrate; CO2 reduction by hydrothermal route');
    expect(r.corrections.map((c) => c.from)).toEqual(['Supercondutivity', 'reducton', 'hydrotermal']);
  });
  it('leaves formulas, abbreviations, short words and words too far from any corpus word alone', () => {
    const q = 'HfB12 ScB12 SOFC gold xylophone';
    expect(correctSpelling(vocabulary, q)).toEqual({ text: q, corrections: [] });
  });
});
