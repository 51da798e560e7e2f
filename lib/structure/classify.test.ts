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

// Invented paragraphs for the classes the rules used to misread.
describe('the rules read what a paragraph does, not its wet-chemistry words', () => {
  it('reads a liquid heated above its boiling point for hours as a sealed-vessel synthesis', () => {
    const t = 'A mixture of V2O5 (0.08 g), copper(II) acetate (0.20 g) and H2O (5.00 mL) was stirred briefly before heating to 150 °C for 72 h (final pH 1.0).';
    expect(classifySynthesisMethod(t).label).toBe('hydro-solvothermal');
    // Dry heating is not: a calcination at 400 °C for 3 h stays what its words say.
    expect(classifySynthesisMethod('The dried gel was calcined in a furnace, heating to 400 °C for 3 h in air (sol-gel route).').label).toBe('sol-gel');
  });

  it('reads a named route that is none of the six as others, whatever precipitation words it uses', () => {
    const t =
      'Au nanoparticles were prepared by the seed-mediated growth method: sodium citrate was added to boiling HAuCl4 solution at room temperature and NaOH set the pH.';
    expect(classifySynthesisMethod(t).label).toBe('others');
  });

  it('reads an ink or electrode made for a measurement, and a measurement opening a paragraph, as the system', () => {
    const ink =
      'Catalyst ink was prepared by dispersing 5 mg of the Co3O4 powder in 1 mL of isopropanol with 20 μL of Nafion; 5 μL was drop-cast on a glassy carbon electrode.';
    expect(classifyParagraphRole(ink).label).toBe('system');
    const tpr =
      'The H2-TPR measurements were conducted in a flow set-up: 100 mg of catalyst was loaded into a quartz reactor and heated to 800 °C at 10 °C/min.';
    expect(classifyParagraphRole(tpr).label).toBe('system');
  });

  it('reads a paragraph praising activity with no measured number as a discussion, not a performance report', () => {
    const t =
      'The superior activity of the NiFe catalyst can be ascribed to its conductive support and the strong coupling between the two phases, which exhibits an enhanced stability.';
    expect(classifyParagraphRole(t).label).toBe('others');
    expect(classifyParagraphRole('The NiFe catalyst exhibits a low overpotential of 230 mV at 10 mA cm−2 and a Tafel slope of 41 mV dec−1.').label).toBe(
      'performance',
    );
  });
});

describe('a liquid held hot for hours', () => {
  it('is a sealed-vessel synthesis when a reaction runs in it, not when a precipitate is dried', () => {
    const reaction =
      'The reaction of V2O5 (0.08 g), cupric acetate hydrate (0.21 g) and H2O (5.00 mL) at 135 °C for 48 h produced green plates in 40% yield (initial pH 2.0).';
    expect(classifySynthesisMethod(reaction).label).toBe('hydro-solvothermal');
    const dried = 'NaOH was added dropwise until pH 10; the precipitate was filtered, washed with water and dried at 120 °C for 12 h (co-precipitation).';
    expect(classifySynthesisMethod(dried).label).toBe('precipitation');
  });
});
