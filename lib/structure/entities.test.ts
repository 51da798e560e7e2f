import { describe, expect, it } from 'vitest';
import { extractSynthesisEntities } from './entities.ts';

// An invented synthesis paragraph.
const text =
  'Nickel foam (NF) was cleaned with 3 M HCl, acetone and ethanol. ' +
  'In a typical synthesis of NiCo-LDH/NF, 2 mmol of Ni(NO3)2·6H2O, 1 mmol of cobalt(II) nitrate hexahydrate, 4 mmol of NH4F and 10 mmol of urea were dissolved in 35 mL of deionized water. ' +
  'The solution and the NF were transferred to a Teflon-lined autoclave and heated at 120 °C for 6 h. ' +
  'The product was washed with ethanol and dried, and denoted as NiCo-LDH/NF.';

describe('extractSynthesisEntities', () => {
  const entities = extractSynthesisEntities(text);
  const byRole = (role: string) => entities.filter((e) => e.role === role).map((e) => e.text);

  it('finds the target, precursors (formulas and names), additives, solvent and substrate', () => {
    expect(byRole('target')).toEqual(['NiCo-LDH/NF']);
    expect(byRole('precursor')).toEqual(['Ni(NO3)2·6H2O', 'cobalt(II) nitrate hexahydrate']);
    expect(byRole('additive')).toEqual(['NH4F', 'urea']);
    expect(byRole('solvent')).toEqual(['deionized water']);
    expect(byRole('substrate')).toEqual(['Nickel foam (NF)']);
  });
  it('drops reagents that only clean the substrate or wash the product', () => {
    const keys = entities.map((e) => e.key);
    expect(keys).not.toContain('HCl');
    expect(keys).not.toContain('acetone');
    expect(keys).not.toContain('EtOH');
  });
  it('gives offsets into the paragraph and normalised keys and formulas', () => {
    for (const e of entities) expect(text.slice(e.start, e.end)).toBe(e.text);
    const salt = entities.find((e) => e.text === 'Ni(NO3)2·6H2O')!;
    expect(salt.formula).toBe('Ni(NO3)2·6H2O');
    expect(entities.find((e) => e.text === 'deionized water')!.key).toBe('H2O');
  });
});

describe('extractSynthesisEntities when no phrase names the product', () => {
  it('takes the material written most often in the making sentences as the target', () => {
    const t = 'A SiC wafer was etched. The SiC surface was chlorinated and a carbon film was grown on SiC by CVD using CCl4 as precursor at 1000 °C.';
    const targets = extractSynthesisEntities(t).filter((e) => e.role === 'target');
    expect(targets.map((e) => e.text)).toEqual(['SiC']);
    expect(t.slice(targets[0].start, targets[0].end)).toBe('SiC');
  });
  it('accepts element nanostructures and products named in words, never a bare symbol', () => {
    expect(extractSynthesisEntities('We fabricated Ir electrocatalysts by nanotransfer printing.').map((e) => e.text)).toEqual(['Ir']);
    expect(extractSynthesisEntities('Halide-doped tin oxide films were grown on glass by AACVD.').find((e) => e.role === 'target')?.text).toBe(
      'Halide-doped tin oxide films',
    );
    expect(extractSynthesisEntities('Co was then measured and prepared for analysis.')).toEqual([]);
  });
});
