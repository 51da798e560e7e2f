import { describe, expect, it } from 'vitest';
import { formulaKey, joinSplitFormulas, plainTerms, readableText, structuredTerms, textFacets } from './terms.ts';
import { tidyFormula } from './formula.ts';

describe('plainTerms', () => {
  it('keeps formulas, numbers and hyphenated terms whole, stems words, drops stop words', () => {
    const terms = plainTerms('The BaZr0.1Ce0.7Y0.2O3−δ electrolytes were sintered at 1450 °C on Ni-YSZ supports.');
    expect(terms).toContain('BaZr0.1Ce0.7Y0.2O3-δ');
    expect(terms).toContain('1450');
    expect(terms).toContain('Ni-YSZ');
    expect(terms).toContain('YSZ'); // parts of hyphenated terms too
    expect(terms).toContain('electrolyt');
    expect(terms).toContain('sinter');
    expect(terms).not.toContain('the');
    expect(terms).not.toContain('were');
  });
  it('keeps the case of formulas (Co is not CO) but not of capitalised words', () => {
    expect(plainTerms('Co and CO')).toEqual(['Co', 'CO']);
    expect(plainTerms('Samples were annealed')).toEqual(['sampl', 'anneal']);
  });
});

describe('formulaKey', () => {
  it('puts formulas in Hill order so writing order does not matter', () => {
    expect(formulaKey('Mn(CH3COO)2·4H2O')).toBe(formulaKey('(CH3COO)2Mn·4H2O'));
    expect(formulaKey('SrCO3')).toBe('CO3Sr');
  });
  it('keeps variable compositions as written and refuses words', () => {
    expect(formulaKey('La1-xSrxMnO3')).toBe('La1-xSrxMnO3');
    expect(formulaKey('Sample')).toBeNull();
  });
});

describe('structured terms', () => {
  it('make paraphrased questions meet the paper: units, formulas written out, property synonyms', () => {
    const paper = new Set(structuredTerms('The cell shows a peak power density of 560 mW cm−2 at 550 °C with a SrCO3-derived cathode.'));
    const question = structuredTerms('a maximum power output per unit area of 0.56 W cm⁻² at 823 K using strontium carbonate');
    for (const t of ['q:power-density:560', 'q:temperature:823', 'p:power-density', 'f:CO3Sr']) {
      expect(question).toContain(t);
      expect(paper.has(t)).toBe(true);
    }
  });
  it('reads PDF-spaced formulas and lexicon names', () => {
    const f = textFacets('The optimally doped Sr 0.9 La 0.1 CuO 2 film on yttria-stabilized zirconia');
    expect(f.formulas).toContain(formulaKey('Sr0.9La0.1CuO2'));
    expect(f.materials).toContain('YSZ');
  });
  it('reads materials joined by a hyphen before a capital ("graphene-Fe2O3"), not a formula’s own hyphens', () => {
    expect(textFacets('N-doped graphene-Fe2O3 nanocomposites').formulas).toEqual([formulaKey('Fe2O3')]);
    expect(textFacets('Ba1-xKxBiO3 and La0.6Sr0.4CoO3-δ').formulas).toEqual([formulaKey('Ba1-xKxBiO3'), formulaKey('La0.6Sr0.4CoO3')]);
    expect(textFacets('a Ni-Cu-P alloy').formulas).toEqual([]);
  });
});

describe('formulaKey: oxygen non-stoichiometry', () => {
  it('gives a formula with or without its δ the same key', () => {
    expect(formulaKey('La0.6Sr0.4CoO3−δ')).toBe(formulaKey('La0.6Sr0.4CoO3'));
    expect(formulaKey('LaBaCo2O5+d')).toBe(formulaKey('LaBaCo2O5+δ'));
    expect(formulaKey('LaBaCo2O5+δ')).toBe(formulaKey('LaBaCo2O5'));
    expect(formulaKey('Ba1−xKxBiO3')).not.toBe(formulaKey('BaKBiO3'));
  });
});

describe('readableText', () => {
  it('joins what PDF extraction split, for display, and keeps suspended hyphens and ordinary spaces', () => {
    expect(readableText('The MgB 2 films show a strong de- pendence on Tc.')).toBe('The MgB2 films show a strong dependence on Tc.');
    expect(readableText('PrBa0.5Sr0.5Co2− xFexO5+ δ (PBSCF) gave 2.2 W cm−2.')).toBe('PrBa0.5Sr0.5Co2−xFexO5+δ (PBSCF) gave 2.2 W cm−2.');
    expect(readableText('Synthesis and Stoichiometry of MgB 2')).toBe('Synthesis and Stoichiometry of MgB2');
    expect(readableText('pre- and post-annealing of Sr 0.9 La 0.1 CuO 2 at 5 K')).toBe('pre- and post-annealing of Sr0.9La0.1CuO2 at 5 K');
  });

  it('writes a degree sign that text extraction turned into a letter or a bullet', () => {
    expect(readableText('heated to 600 oC, below the melting point of gallium (29 • C), then at 800oC')).toBe(
      'heated to 600 °C, below the melting point of gallium (29 °C), then at 800 °C',
    );
    expect(readableText('Co3O4 and CoO')).toBe('Co3O4 and CoO');
  });

  it('keeps offsets when joining formulas for readers that bind values to materials', () => {
    const text = 'The MgB 2 wires reach 38.5 K.';
    expect(joinSplitFormulas(text)).toHaveLength(text.length);
    expect(joinSplitFormulas(text).indexOf('38.5')).toBe(text.indexOf('38.5'));
  });
});

describe('textFacets: formulas in brackets', () => {
  it('reads a formula given in parentheses after its name, or grouped in square brackets, as that formula', () => {
    expect(textFacets('the LSCF (La0.6Sr0.4Co0.2Fe0.8O3-δ) cathode').formulas).toContain(formulaKey(tidyFormula('La0.6Sr0.4Co0.2Fe0.8O3-δ')));
    expect(textFacets('conductivity of [Ce0.9Gd0.1]O2 at 600 C').formulas).toContain(formulaKey('Ce0.9Gd0.1O2'));
  });
});
