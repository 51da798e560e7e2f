import { describe, expect, it } from 'vitest';
import { learnAbbreviations, matchLongForm } from './abbreviations.ts';

describe('abbreviations learned from the corpus', () => {
  const abbreviations = learnAbbreviations([
    'The cell reached an open circuit voltage (OCV) of 1.05 V and a peak power density (PPD) of 0.5 W cm−2.',
    'We measured the OCV (open-circuit voltage) again after 100 h.',
    'Reduced graphene oxide (rGO) sheets were dried. The sample (S1) was dried.',
    'The polycarbonate (PC) films … the propylene carbonate (PC) solvent … a personal computer (PC).',
  ]);
  it('matches a short form to the words that spell it (Schwartz & Hearst)', () => {
    expect(matchLongForm('OCV', 'the cell reached an open circuit voltage')).toBe('open circuit voltage');
    expect(matchLongForm('S1', 'The sample')).toBeNull();
  });
  it('learns definitions in both orders and ignores ambiguous ones', () => {
    expect(abbreviations.longForm('OCV')).toBe('open circuit voltage');
    expect(abbreviations.longForm('PPD')).toBe('peak power density');
    expect(abbreviations.longForm('rGO')).toBe('reduced graphene oxide');
    expect(abbreviations.longForm('PC')).toBeNull();
  });
  it('expands a query both ways', () => {
    expect(abbreviations.expansions('OCV of the cell')).toEqual(expect.arrayContaining(['open', 'circuit', 'voltag']));
    expect(abbreviations.expansions('its peak power density')).toContain('PPD');
  });
});
