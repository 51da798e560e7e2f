import { describe, expect, it } from 'vitest';
import { classifyParagraphRole, classifySynthesisMethod } from './classify.ts';

// Invented paragraphs, one per class, written for these tests.
describe('classifyParagraphRole', () => {
  it.each([
    [
      'synthesis',
      'In a typical synthesis, 2 mmol of Ni(NO3)2·6H2O and 1 mmol of urea were dissolved in 30 mL of water, stirred for 20 min, transferred to a Teflon-lined autoclave and heated at 120 °C for 6 h.',
    ],
    [
      'system',
      'Electrochemical measurements were carried out on a CHI 760E electrochemical workstation in a three-electrode cell with a graphite rod counter electrode and an Hg/HgO reference electrode in 1 M KOH. All potentials were converted to the RHE scale.',
    ],
    [
      'performance',
      'The NiFe-LDH electrode exhibited a remarkably low overpotential of 230 mV at a current density of 10 mA cm−2 and a Tafel slope of 42 mV dec−1, outperforming RuO2.',
    ],
    [
      'others',
      'The XRD patterns show diffraction peaks indexed to the hexagonal phase, and XPS spectra reveal the oxidation state of Ni; DFT calculations give the adsorption energy of OH*.',
    ],
  ])('labels a %s paragraph', (label, text) => {
    const c = classifyParagraphRole(text);
    expect(c.label).toBe(label);
    expect(c.evidence.length).toBeGreaterThan(0);
  });
  it('falls back to others when no cue fires', () => {
    expect(classifyParagraphRole('Acknowledgements go to the funding agency.').label).toBe('others');
  });
});

describe('classifySynthesisMethod', () => {
  it.each([
    ['hydro-solvothermal', 'The mixture was sealed in a Teflon-lined stainless-steel autoclave and kept at 160 °C for 12 h (hydrothermal treatment).'],
    ['electrodeposition', 'NiFe films were electrodeposited on carbon paper at a constant potential of −1.0 V vs Ag/AgCl in a three-electrode cell.'],
    [
      'sol-gel',
      'Metal nitrates and citric acid were dissolved in water; the sol was heated at 80 °C until a gel formed, which was calcined at 900 °C (sol-gel route).',
    ],
    [
      'precipitation',
      'NaOH solution was added dropwise to the nitrate solution until pH 10; the precipitate was aged, filtered and washed (co-precipitation).',
    ],
    ['vapor-phase', 'The nickel foam was phosphorized in a tube furnace with NaH2PO2 placed upstream under Ar flow at 350 °C.'],
    ['solid-phase', 'Stoichiometric SrCO3 and Co3O4 powders were ball-milled and calcined at 1100 °C by a solid-state reaction.'],
    ['others', 'Graphene oxide was prepared by a modified Hummers method.'],
  ])('labels %s synthesis', (label, text) => {
    expect(classifySynthesisMethod(text).label).toBe(label);
  });
});
