import { describe, expect, it } from 'vitest';
import { materialAliases, normaliseMaterial } from './materials.ts';

describe('normaliseMaterial', () => {
  it('brings abbreviations, names and formulas of the same material to one key', () => {
    const keys = ['YSZ', 'yttria-stabilized zirconia', 'Yttria-stabilised zirconia', 'Y2O3-stabilized ZrO2', '8YSZ'].map((s) => normaliseMaterial(s).key);
    expect(new Set(keys)).toEqual(new Set(['YSZ']));
    expect(normaliseMaterial('samarium-doped ceria').key).toBe(normaliseMaterial('SDC').key);
    expect(normaliseMaterial('CGO').key).toBe('GDC');
    expect(normaliseMaterial('potassium permanganate')).toMatchObject({ key: 'KMnO4', formula: 'KMnO4' });
    expect(normaliseMaterial('KMnO4')).toMatchObject({ key: 'KMnO4', kind: 'lexicon' });
  });
  it('gives classes of materials a key but no formula', () => {
    expect(normaliseMaterial('LDH')).toMatchObject({ key: 'LDH', formula: null, label: 'layered double hydroxide' });
    expect(normaliseMaterial('NiFe LDH')).toMatchObject({ key: 'NiFe-LDH', formula: null });
  });
  it('normalises formulas it does not know, and leaves unknown names as names', () => {
    expect(normaliseMaterial('BaZr0.4Ce0.4Y0.2O3−δ')).toMatchObject({ kind: 'formula', key: 'BaZr0.4Ce0.4Y0.2O3-δ' });
    expect(normaliseMaterial('NiSO4 · 6H2O').formula).toBe('NiSO4·6H2O');
    expect(normaliseMaterial('MOF 3')).toMatchObject({ kind: 'name', formula: null });
    expect(normaliseMaterial('go').kind).toBe('name'); // abbreviations are case-sensitive
  });
  it('lists the aliases of a material for query expansion', () => {
    expect(materialAliases('SDC')).toEqual(expect.arrayContaining(['samarium-doped ceria', 'Ce1-xSmxO2-δ']));
    expect(materialAliases('unobtainium')).toEqual(['unobtainium']);
  });
});
