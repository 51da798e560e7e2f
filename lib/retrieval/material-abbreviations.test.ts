import { describe, expect, it } from 'vitest';
import { expandMaterialAbbreviations, materialAbbreviationMap, spelledAbbreviationMap, spelledShortForms, spellsShortForm } from './material-abbreviations.ts';

// What a corpus writes (invented counts): "LiFePO4/C (LFP)", LSM in two spellings of one composition, GDC by its
// dopant, LCO for two different materials, and words in brackets that are no formula.
const rows = [
  { long: 'LiFePO4/C', short: 'LFP', uses: 1 },
  { long: 'PO4', short: 'LFP', uses: 1 },
  { long: 'La0.8Sr0.2MnO3', short: 'LSM', uses: 11 },
  { long: 'Sr0.2La0.8MnO3', short: 'LSM', uses: 2 },
  { long: 'La0.7Sr0.3MnO3', short: 'LSM', uses: 3 },
  { long: 'Gd0.2Ce0.8O1.9', short: 'GDC', uses: 4 },
  { long: 'Ce0.8Gd0.2O1.9', short: 'GDC', uses: 3 },
  { long: 'LaCrO3', short: 'LCO', uses: 4 },
  { long: 'LaCoO3', short: 'LCO', uses: 3 },
  { long: 'Fig', short: 'SEM', uses: 9 },
];

describe('short forms of materials the corpus defines', () => {
  it('reads a short form as the formula written before it, when the symbols spell it and one composition dominates', () => {
    const map = materialAbbreviationMap(rows);
    expect(map.get('LFP')).toEqual({ formula: 'LiFePO4', uses: 1, total: 1 });
    // Two spellings of one composition count together; the most written spelling is the one used.
    expect(map.get('LSM')).toEqual({ formula: 'La0.8Sr0.2MnO3', uses: 13, total: 16 });
    expect(map.get('GDC')?.formula).toBe('Gd0.2Ce0.8O1.9');
    // Two materials share it (4 and 3 uses): read as neither.
    expect(map.has('LCO')).toBe(false);
    expect(map.has('SEM')).toBe(false);
    expect(spellsShortForm('LFP', 'LiFePO4')).toBe(true);
    // A short form the corpus mostly defines by words is not read as the one formula a paper wrote before it.
    const withWords = materialAbbreviationMap([...rows, { long: 'Ca0.6Nd0.26TiO3', short: 'CNT', uses: 1 }], (s) => (s === 'CNT' ? 40 : 0));
    expect(withWords.has('CNT')).toBe(false);
    expect(withWords.has('LFP')).toBe(true);
    expect(spellsShortForm('BZY', 'LiFePO4')).toBe(false);
  });

  it('replaces the short form in a question, but not a word that already names a material', () => {
    const map = materialAbbreviationMap(rows);
    const r = expandMaterialAbbreviations(map, 'how do u make LFP cathode powder, and LSM?', (w) => w === 'LSM');
    expect(r.text).toBe('how do u make LiFePO4 cathode powder, and LSM?');
    expect(r.expansions).toEqual([{ from: 'LFP', to: 'LiFePO4', uses: 1, total: 1 }]);
    expect(expandMaterialAbbreviations(map, 'the LFPs and xLFP', () => false).expansions).toEqual([]);
  });
});

describe('short forms spelled from the records’ target formulas', () => {
  it('are the first letters of the elements as written, with and without a trailing O', () => {
    expect(spelledShortForms('Li7La3Zr2O12')).toEqual(['LLZO', 'LLZ']);
    expect(spelledShortForms('LiNi0.8Co0.1Mn0.1O2')).toEqual(['LNCMO', 'LNCM']);
    expect(spelledShortForms('BaZr0.8Y0.2O3')).toEqual(['BZYO', 'BZY']);
    expect(spelledShortForms('O2')).toEqual([]);
  });

  it('read a short form as the composition most recipes spelling it make, when it holds 60 % of them and ten recipes', () => {
    const map = spelledAbbreviationMap([
      { formula: 'Li7La3Zr2O12', uses: 57 },
      { formula: 'LiCoO2', uses: 126 },
      { formula: 'LaCoO3', uses: 73 },
      { formula: 'LaCrO3', uses: 23 },
      { formula: 'LiFePO4/C', uses: 48 },
      { formula: 'LiFePO4', uses: 20 },
      { formula: 'LiNi0.4Mn0.4Co0.2O2', uses: 4 },
    ]);
    expect(map.get('LLZO')).toEqual({ formula: 'Li7La3Zr2O12', uses: 57, total: 57, source: 'records' });
    // A carbon coating is the same material; the form most recipes write is shown.
    expect(map.get('LFP')).toMatchObject({ formula: 'LiFePO4', uses: 68 });
    // LiCoO2 holds 57 % of the recipes spelling LCO: read as none. Four recipes are too few.
    expect(map.has('LCO')).toBe(false);
    expect(map.has('NMC')).toBe(false);
    // Expanded like a defined short form, saying where it was read.
    expect(expandMaterialAbbreviations(map, 'how is LLZO synthesized', () => false).expansions).toEqual([
      { from: 'LLZO', to: 'Li7La3Zr2O12', uses: 57, total: 57, source: 'records' },
    ]);
  });
});
