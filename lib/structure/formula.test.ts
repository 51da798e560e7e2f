import { describe, expect, it } from 'vitest';
import { findSpacedFormulas, normaliseFormula, tidyFormula } from './formula.ts';

describe('normaliseFormula', () => {
  it('parses simple, parenthesised and hydrated formulas into compositions', () => {
    expect(normaliseFormula('LiMn2O4')).toMatchObject({ formula: 'LiMn2O4', composition: { Li: 1, Mn: 2, O: 4 } });
    expect(normaliseFormula('Ni(NO3)2')).toMatchObject({ composition: { Ni: 1, N: 2, O: 6 } });
    expect(normaliseFormula('NiSO4·6H2O')).toMatchObject({ formula: 'NiSO4·6H2O', composition: { Ni: 1, S: 1, O: 10, H: 12 } });
    expect(normaliseFormula('NiSO4 • 6H2O')?.formula).toBe('NiSO4·6H2O');
    expect(normaliseFormula('Bi(NO3)3*5H2O')?.formula).toBe('Bi(NO3)3·5H2O');
    expect(normaliseFormula('Co(SO4)·7H2O')?.composition).toEqual({ Co: 1, S: 1, O: 11, H: 14 });
  });
  it('keeps doped and non-stoichiometric compositions, with Unicode minus and subscripts', () => {
    expect(normaliseFormula('BaZr0.4Ce0.4Y0.2O3−δ')).toMatchObject({
      formula: 'BaZr0.4Ce0.4Y0.2O3-δ',
      composition: null,
      elements: ['Ba', 'Ce', 'O', 'Y', 'Zr'],
    });
    expect(normaliseFormula('La1−xSrxMnO3')).toMatchObject({ formula: 'La1-xSrxMnO3', composition: null });
    expect(normaliseFormula('La0.6Sr0.4Co0.2Fe0.8O3')?.composition).toEqual({ La: 0.6, Sr: 0.4, Co: 0.2, Fe: 0.8, O: 3 });
    expect(normaliseFormula('Li₂CO₃')?.formula).toBe('Li2CO3');
    expect(normaliseFormula('SrCo0.8Nb0.1Ta0.1O3−δ')?.formula).toBe('SrCo0.8Nb0.1Ta0.1O3-δ');
  });
  it('mends PDF spacing inside formulas', () => {
    expect(tidyFormula('YBa 2 Cu 3 O y')).toBe('YBa2Cu3Oy');
    expect(normaliseFormula('YBa 2 Cu 3 O 7')?.composition).toEqual({ Y: 1, Ba: 2, Cu: 3, O: 7 });
  });
  it('returns null for words, abbreviations and ambiguous symbols rather than guessing', () => {
    for (const s of ['nickel foam', 'YSZ', 'LDH', 'Co', 'NF', 'CNT', 'MOF 3', 'Xy2', 'water', '', 'Ni3S2/NF-1']) expect(normaliseFormula(s), s).toBeNull();
  });
});

describe('findSpacedFormulas: hydrates and refined counts', () => {
  it('joins a spaced-out hydrate across its dot', () => {
    expect(findSpacedFormulas('the Na 0.35 CoO 2 •yH 2 O powder').map((f) => f.joined)).toEqual(['Na0.35CoO2•yH2O']);
  });
});

describe('findSpacedFormulas: a bracketed group before the split', () => {
  it('joins the last element and its variable count to the formula they end', () => {
    const text = 'the high-Tc cuprate YBa2(Cu1−yCoy)3O 7+δ (y=0.013, Tc=93 K)';
    const [f] = findSpacedFormulas(text);
    expect(f.joined).toBe('YBa2(Cu1−yCoy)3O7+δ');
    expect(text.slice(f.start, f.end)).toBe('YBa2(Cu1−yCoy)3O 7+δ');
    // A bracket closing prose is no formula's group.
    expect(findSpacedFormulas('as shown (Fig. 3)O 2+x')).toEqual([]);
  });
});

describe('findSpacedFormulas: values typed after a formula are not part of it', () => {
  it('keeps "3.8K", "560 mW/cm2" and "12K" out of formulas', () => {
    expect(findSpacedFormulas('CeOBiS2 Tc 3.8K at 1.62GPa')).toEqual([]);
    expect(findSpacedFormulas('micro SOFC 560 mW/cm2 550C')).toEqual([]);
    expect(findSpacedFormulas('MgAlB2 Tc 12K Mg Al ordering')).toEqual([]);
    expect(findSpacedFormulas('Tc of MgB 2 is 39 K').map((f) => f.joined)).toEqual(['MgB2']);
    expect(findSpacedFormulas('Ba 1−x K x BiO 3').map((f) => f.joined)).toEqual(['Ba1−xKxBiO3']);
  });
  it('joins a formula spaced after its variable counts ("GdSr2Ru1−x Cu2+x O8")', () => {
    expect(findSpacedFormulas('in which GdSr2Ru1−x Cu2+x O8 (x = 0.05, 0.1) showed').map((f) => f.joined)).toEqual(['GdSr2Ru1−xCu2+xO8']);
    expect(findSpacedFormulas('a 1−x Cu site and the 2+x Oxidation')).toEqual([]);
  });

  it('reads an oxygen nonstoichiometry typed with another letter as δ', () => {
    for (const [typed, tidy] of [
      ['PrBa0.5Sr0.5Co1.5Fe0.5O5-α', 'PrBa0.5Sr0.5Co1.5Fe0.5O5-δ'],
      ['La0.6Sr0.4CoO3-d', 'La0.6Sr0.4CoO3-δ'],
      ['LaBaCo2O5+d', 'LaBaCo2O5+δ'],
      ['BaCe0.7Zr0.1Y0.1Yb0.1O3−delta', 'BaCe0.7Zr0.1Y0.1Yb0.1O3-δ'],
      ['SrTiO3±δ', 'SrTiO3-δ'],
    ])
      expect(tidyFormula(typed), typed).toBe(tidy);
    expect(normaliseFormula('La0.6Sr0.4CoO3-d')?.formula).toBe(normaliseFormula('La0.6Sr0.4CoO3−δ')?.formula);
    // Only after oxygen: a hyphenated name is left alone.
    expect(tidyFormula('LSCF-d')).toBe('LSCF-d');
  });

  it('reads square brackets as round ones, and brackets around the whole formula as no part of it', () => {
    expect(normaliseFormula('[Ce0.9Gd0.1]O2')?.composition).toEqual(normaliseFormula('(Ce0.9Gd0.1)O2')?.composition);
    expect(tidyFormula('(La0.6Sr0.4Co0.2Fe0.8O3−δ)')).toBe('La0.6Sr0.4Co0.2Fe0.8O3-δ');
    // A group that does not wrap the whole formula stays.
    expect(tidyFormula('(CH3COO)2Mn')).toBe('(CH3COO)2Mn');
    expect(tidyFormula('(La0.6Sr0.4)(Co0.2Fe0.8)O3')).toBe('(La0.6Sr0.4)(Co0.2Fe0.8)O3');
  });
});
