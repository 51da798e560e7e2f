import { describe, expect, it } from 'vitest';
import { withArticle } from './format.ts';

describe('withArticle', () => {
  it('puts "an" before a vowel sound and "a" before a consonant sound, acronyms read letter by letter', () => {
    expect(withArticle('area-specific resistance value')).toBe('an area-specific resistance value');
    expect(withArticle('onset potential')).toBe('an onset potential');
    expect(withArticle('band gap value')).toBe('a band gap value');
    expect(withArticle('power density value')).toBe('a power density value');
    expect(withArticle('unit cell volume')).toBe('a unit cell volume');
    expect(withArticle('yield')).toBe('a yield');
    expect(withArticle('XRD peak position')).toBe('an XRD peak position');
    expect(withArticle('BET surface area')).toBe('a BET surface area');
    expect(withArticle('Tc value')).toBe('a Tc value');
  });
});
