import { describe, expect, it } from 'vitest';
import { paragraphEvidence } from '../../../scripts/test-support/retrieval-fixtures.ts';
import { analyseQuestion } from '../question.ts';
import { groundingOf } from './grounding.ts';

const cite = (...texts: string[]) => texts.map((t, i) => paragraphEvidence(`g${i}`, t));

describe('groundingOf: what the cited evidence states of what was asked', () => {
  it('states the asked material after notation: a family, a hydrate, a nonstoichiometry typed another way', () => {
    const g = groundingOf(analyseQuestion('What is the ASR of La0.6Sr0.4Co0.2Fe0.8O3-d at 600 °C?'), cite('La1−xSrxCo1−yFeyO3−δ gave 0.2 Ω cm2 at 600 °C.'));
    expect(g.material).toBe(1);
    expect(g.value).toBe(1);
    const h = groundingOf(analyseQuestion('Which paper reports Na0.3CoO2 1.3H2O superconducting at 4.3 K?'), cite('Na0.30CoO2·1.3H2O superconducts at 4.3 K.'));
    expect(h.material).toBe(1);
    expect(h.ungrounded).toEqual([]);
  });

  it('an answer citing another material, another property or no asked condition is not grounded, and says what it lacks', () => {
    const other = groundingOf(analyseQuestion('What is the conductivity of BaZr0.8Y0.2O3 at 600 °C?'), cite('SrTiO3 reached 0.01 S cm−1 at 600 °C.'));
    expect(other.material).toBe(0);
    expect(other.ungrounded.map((u) => u.facet)).toContain('material');
    const property = groundingOf(analyseQuestion('What is the electrical conductivity of LSCF?'), cite('LSCF powders were calcined at 900 °C for 4 h.'));
    expect(property.material).toBe(1);
    expect(property.property).toBe(0);
    const condition = groundingOf(
      analyseQuestion('Which paper reports a Tc of 3.8 K for CeOBiS2 at 3.5 GPa?'),
      cite('CeOBiS2 reaches a Tc of 3.8 K at 1.62 GPa.'),
    );
    expect(condition.value).toBe(0.5);
    expect(condition.ungrounded).toEqual([{ facet: 'condition', asked: '3.5 GPa', note: 'the cited evidence does not state it' }]);
  });

  it('a change from one value to another states its two ends, not the values between them', () => {
    const changed = cite('When the sintering temperature increases from 600 to 1000 °C, the peak power density of the cell drops from 543 to 106 mW/cm2.');
    expect(groundingOf(analyseQuestion('Which paper reports a peak power density of 423 mW/cm2 for a cell?'), changed).value).toBe(0);
    expect(groundingOf(analyseQuestion('Which paper reports a peak power density of 543 mW/cm2 for a cell?'), changed).value).toBe(1);
    // A range stated as a range still holds the values in it.
    const range = cite('The peak power density of the cell was 400–450 mW/cm2.');
    expect(groundingOf(analyseQuestion('Which paper reports a peak power density of 423 mW/cm2 for a cell?'), range).value).toBe(1);
  });

  it('a value is stated as what it is a value of, and several values together', () => {
    // 25 K said of another measurement, in a sentence naming neither the material nor the property asked.
    const elsewhere = groundingOf(
      analyseQuestion('Which paper reports superconductivity in Cd2Re2O7 at 25 K?'),
      cite('Cd2Re2O7 superconducts below 1 K.', 'The heat capacity was measured from 2 to 25 K.'),
    );
    expect(elsewhere.value).toBe(0);
    // A Tc and a pressure from two experiments are not the fact asked.
    const apart = groundingOf(
      analyseQuestion('Which paper reports a Tc of 5.1 K for CeOBiS2 at 1.62 GPa?'),
      cite('The Tc of CeOBiS2 reached 3.8 K at 1.62 GPa.', 'Doping with F raised the Tc of CeOBiS2 to 5.1 K.'),
    );
    expect(apart.value).toBe(0.5);
    const together = groundingOf(
      analyseQuestion('Which paper reports a Tc of 3.8 K for CeOBiS2 at 1.62 GPa?'),
      cite('The Tc of CeOBiS2 reached 3.8 K at 1.62 GPa.'),
    );
    expect(together.value).toBe(1);
  });

  it('a mixed compound named in words is stated by its family, not by one of its parts', () => {
    const asked = analyseQuestion('lithium iron phosphate cathode capacity');
    expect(groundingOf(asked, cite('LiNi0.8Co0.2O2 nanopowders for lithium ion batteries reached 173 mAh g-1.')).material).toBe(0);
    expect(groundingOf(asked, cite('Carbon-coated LiFePO4 reached 160 mAh g-1.')).material).toBe(1);
  });

  it('a material named only inside a composite is another sample than the one asked', () => {
    const asked = analyseQuestion('What is the electrical conductivity of LSCF?');
    const composite = groundingOf(asked, cite('The SCDC-LSCF heterostructure reached an ionic conductivity of 0.229 S/cm at 600 °C.'));
    expect(composite.material).toBe(0);
    expect(composite.ungrounded[0]).toMatchObject({ facet: 'material', asked: 'LSCF', note: 'the cited evidence names it only in a composite' });
    expect(groundingOf(asked, cite('LSCF reached 300 S/cm at 600 °C, above the LSCF/GDC composite.')).material).toBe(1);
  });

  it('a name no reader turns into a material is held to its spelling', () => {
    const asked = 'Find the study in which PLCCO crystals showed a superconducting transition temperature of 24 K.';
    expect(groundingOf(analyseQuestion(asked), cite('The Tc at ambient pressure is 3.3 K for Cs and 24 K for K.')).material).toBe(0);
    expect(groundingOf(analyseQuestion(asked), cite('Our PLCCO crystals have a Tc of 24 K.')).material).toBe(1);
  });

  it('asks nothing of what the question does not name', () => {
    const g = groundingOf(analyseQuestion('Which papers discuss grain boundaries in electrolytes?'), cite('Grain boundaries block protons.'));
    expect(g).toMatchObject({ material: null, value: null });
  });
});
