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

// Invented sentences, one per class of misreading found on the KIST dev half and in an uploaded paper.
describe('extractSynthesisEntities reads materials as chemists write them', () => {
  const roles = (t: string) => extractSynthesisEntities(t).map((e) => `${e.role}:${e.text}`);

  it('names a product with its morphology and support, and keeps a made oxide apart from the reagent salts', () => {
    expect(roles('Ni(OH)2 nanosheets were synthesized on NF by a hydrothermal method; NiCl2•6H2O (1 mmol) was dissolved in water.')).toContain(
      'target:Ni(OH)2',
    );
    expect(roles('Ag NWs@NiFe LDHs were prepared by a hydrothermal method from Ni(NO3)2·6H2O and Fe(NO3)3·9H2O in water.')).toContain(
      'target:Ag NWs@NiFe LDHs',
    );
    expect(roles('NiSe nanorods were grown on NF by a solvothermal method. The NiSe/NF was then washed.')).toContain('target:NiSe/NF');
    expect(roles('The synthesis of Ni-doped Co3O4 started from CoCl2·6H2O dissolved in water.')).toContain('target:Ni-doped Co3O4');
  });

  it('gives salts, acids, ligands and ions the roles they play', () => {
    const t =
      'A mixture of V2O5 (0.08 g), cobalt(II) chloride (CoCl2, anhydrous, 98%), NaCl (2 mmol), 1,10-phenanthroline (0.09 g), tannic acid (0.5 g), ' +
      '2-pyridyl carboxylic acid (0.13 g), N2H4·H2O (0.5 mL), HF (0.2 mL) and H2O (5 mL) was heated to 150 °C for 72 h; Co2+ ions were released. ' +
      'IR (KBr pellet, cm−1): 1050.';
    const r = roles(t);
    expect(r).toEqual(
      expect.arrayContaining([
        'precursor:V2O5',
        'precursor:cobalt(II) chloride',
        'additive:NaCl',
        'additive:1,10-phenanthroline',
        'additive:tannic acid',
        'additive:2-pyridyl carboxylic acid',
        'additive:N2H4·H2O',
        'additive:HF',
        'solvent:H2O',
      ]),
    );
    // The reagent's formula after its name is the same reagent; an ion is no reagent; an IR pellet is no additive.
    expect(r).not.toContain('precursor:CoCl2');
    expect(r.some((x) => /Co2|KBr/.test(x))).toBe(false);
  });

  it('reads each step of a sentence that goes on to the next on its own: a cleaning step, then the recipe', () => {
    const r = roles(
      'The Ni foam was cleaned in 20% HCl, methanol, and deionized water under sonication and then 1 mmol Ni(NO3)2·6H2O and 6 mmol urea were dissolved in 45 mL of ethanol. ' +
        'The foam was cleaned with acetone and dried in a vacuum oven. 4 mmol CoCl2·6H2O was added to the solution.',
    );
    expect(r).toEqual(expect.arrayContaining(['precursor:Ni(NO3)2·6H2O', 'additive:urea', 'solvent:ethanol', 'precursor:CoCl2·6H2O']));
    // The cleaning's liquids are not the recipe's.
    expect(r.filter((x) => /methanol|deionized water|acetone|HCl/.test(x))).toEqual([]);
    // A "then" inside a clause starts no step: the hydroxide washed is the product washed, not a reagent.
    expect(roles('Ni(NO3)2·6H2O (2 mmol) was dissolved in water and heated at 120 °C. The Ni(OH)2 was then washed with ethanol.')).not.toContain(
      'precursor:Ni(OH)2',
    );
  });

  it("leaves out another sample's reagents", () => {
    const r = roles(
      'NiFe LDH was prepared from Ni(NO3)2·6H2O in water by a hydrothermal method. CoFe LDH was made alike, except that Co(NO3)2·6H2O replaced Ni(NO3)2·6H2O.',
    );
    expect(r).toContain('precursor:Ni(NO3)2·6H2O');
    expect(r).not.toContain('precursor:Co(NO3)2·6H2O');
  });

  it('reads supports named by metal and form, organometallic and -ous salts, and fuels as the classes they are', () => {
    const r = roles(
      'Titanium butoxide (2 mL), cupric nitrate hydrate (0.2 g) and cobaltous acetate tetrahydrate (1 mmol) were dissolved in ethanol with 0.5 g of carbamide and 0.2 g of glucose. ' +
        'A piece of Cu foil was immersed in the solution, which was then heated at 150 °C for 10 h in an autoclave.',
    );
    expect(r).toEqual(
      expect.arrayContaining([
        'precursor:Titanium butoxide',
        'precursor:cobaltous acetate tetrahydrate',
        'precursor:cupric nitrate hydrate',
        'additive:carbamide',
        'additive:glucose',
        'substrate:Cu foil',
        'solvent:ethanol',
      ]),
    );
    // A support made for a catalyst is the product of its recipe; cerium salts by their old names.
    expect(roles('The TiO2 support was prepared by hydrolysis of titanium isopropoxide and calcined at 500 °C.')).toContain('target:TiO2');
    expect(roles('CeO2/TiO2 was prepared by impregnating TiO2 with an aqueous solution of cerous nitrate.')).toContain('precursor:cerous nitrate');
  });
});
