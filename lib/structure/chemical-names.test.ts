import { describe, expect, it } from 'vitest';
import { chemicalNameToFormula, findChemicalNames } from './chemical-names.ts';

describe('chemicalNameToFormula', () => {
  it.each([
    ['strontium carbonate', 'SrCO3'],
    ['lanthanum manganite', 'LaMnO3'],
    ['barium cerate', 'BaCeO3'],
    ['lanthanum cobaltite', 'LaCoO3'],
    ['iron(III) chloride hexahydrate', 'FeCl3·6H2O'],
    ['Iron (II) sulphate', 'FeSO4'],
    ['lanthanum nitrate hexahydrate', 'La(NO3)3·6H2O'],
    ['manganese acetate tetrahydrate', 'Mn(CH3COO)2·4H2O'],
    ['ammonium sulfate', '(NH4)2SO4'],
    ['tantalum pentoxide', 'Ta2O5'],
    ['titanium dioxide', 'TiO2'],
    ['ferric nitrate', 'Fe(NO3)3'],
    ['aluminium oxide', 'Al2O3'],
    ['hydrochloric acid', 'HCl'],
    ['hematite', 'Fe2O3'],
    ['arsenic', 'As'],
  ])('%s → %s', (name, formula) => expect(chemicalNameToFormula(name)).toBe(formula));

  it('returns null for names it cannot build rather than guessing', () => {
    expect(chemicalNameToFormula('phenyl dichlorophosphate')).toBeNull();
    expect(chemicalNameToFormula('unobtainium carbonate')).toBeNull();
    expect(chemicalNameToFormula('nickel foam')).toBeNull();
  });

  it('finds names in running text with offsets', () => {
    const t = 'prepared from strontium carbonate, hematite and Ta2O5 in hydrochloric acid';
    const found = findChemicalNames(t);
    expect(found.map((f) => f.formula)).toEqual(['SrCO3', 'Fe2O3', 'HCl']);
    for (const f of found) expect(t.slice(f.start, f.end)).toBe(f.text);
  });

  it('reads "lead" as the metal, not as the verb of a causal sentence', () => {
    const formulas = (t: string) => findChemicalNames(t).map((f) => f.formula);
    expect(formulas('Does Sr doping lead to higher grain boundary conductivity?')).toEqual([]);
    expect(formulas('Excess sintering can lead to cracking, which would lead into failure.')).toEqual([]);
    expect(formulas('Lead oxide and lead-free perovskites; the lead content of PZT.')).toEqual(['PbO', 'Pb', 'Pb']);
  });
});
