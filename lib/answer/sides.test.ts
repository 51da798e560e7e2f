import { describe, expect, it } from 'vitest';
import { analyseQuestion } from '../retrieval/question.ts';
import { corpusOf, type FixturePaper, indexOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import { answerQuestion } from './answer.ts';
import { answerText } from './types.ts';
import { askedPropertyWords, comparedSides, isSide, namesCompositeOf, sideQuestion } from './sides.ts';

const paper = (id: string, title: string, text: string): FixturePaper => ({ id, doi: `10.9999/${id}`, title, paragraphs: [{ text }] });
const ysz = paper('ysz', 'Ionic transport in YSZ electrolytes', 'The YSZ electrolyte reached an ionic conductivity of 0.05 S cm−1 at 800 °C in air.');
const cermet = paper('cermet', 'Ni-YSZ cermet anodes', 'The Ni-YSZ cermet showed an ionic conductivity of 2000 S cm−1 at 800 °C after reduction.');
const gdc600 = paper('gdc600', 'GDC at intermediate temperature', 'The GDC electrolyte showed an ionic conductivity of 0.1 S cm−1 at 600 °C in air.');
const gdc800 = paper('gdc800', 'GDC at high temperature', 'The GDC electrolyte showed an ionic conductivity of 0.15 S cm−1 at 800 °C in air.');
const QUESTION = 'Which has the higher ionic conductivity at 800 °C, YSZ or GDC?';

describe('two-sided comparisons', () => {
  it('read a comparison from its construction where no wording rule names one ("beats", "rank … by")', () => {
    for (const q of ['I need to know if La0.6Sr0.4CoO3 beats Sm0.5Sr0.5CoO3 in power density.', 'Rank La0.6Sr0.4CoO3 and Sm0.5Sr0.5CoO3 by power density.'])
      expect(
        comparedSides(analyseQuestion(q))?.map((s) => s.name),
        q,
      ).toEqual(['La0.6Sr0.4CoO3', 'Sm0.5Sr0.5CoO3']);
    expect(comparedSides(analyseQuestion('What is the power density of La0.6Sr0.4CoO3 and of its Sm analogue?'))).toBeNull();
  });
  it('read one side chosen over the other as a comparison ("pick A over B if …", "prefer A over B for …")', () => {
    for (const q of [
      'would you pick LSCF over LSM if area-specific resistance is what matters?',
      'Should we prefer GDC over YSZ for ionic conductivity at 600 °C?',
      'Is it worth choosing GDC over YSZ for the ionic conductivity of a 600 °C cell?',
    ])
      expect(comparedSides(analyseQuestion(q))?.length, q).toBe(2);
    // "over" of a condition is no choice.
    expect(comparedSides(analyseQuestion('What is the ionic conductivity of GDC over 600 °C?'))).toBeNull();
  });
  it('read the sides a question names, and ask each its own question under the same property and conditions', () => {
    const a = analyseQuestion(QUESTION);
    const sides = comparedSides(a);
    expect(sides?.map((s) => s.name)).toEqual(['YSZ', 'GDC']);
    expect(sideQuestion(a, sides![1])).toBe('What is the ionic conductivity of GDC at 800 °C?');
    expect(comparedSides(analyseQuestion('Compare the specific capacity of LiCoO2 and LiNiMnCoO2 cathodes'))?.map((s) => s.name)).toEqual([
      'LiCoO2',
      'LiNiMnCoO2',
    ]);
    expect(comparedSides(analyseQuestion('Which cathode has the highest peak power density at 600 °C?'))).toBeNull();
    expect(comparedSides(analyseQuestion('What is the ionic conductivity of YSZ and GDC composites?'))).toBeNull();
    expect(isSide('Ni-YSZ', sides![0])).toBe(false);
    expect(isSide('YSZ', sides![0])).toBe(true);
    // A name read both as a formula and as a material name is one side.
    const oxides = comparedSides(analyseQuestion('Compare the band gap of TiO2 and ZnO'));
    expect(oxides?.map((s) => s.name)).toEqual(['TiO2', 'ZnO']);
    expect(isSide('TiO2', oxides![0])).toBe(true);
    expect(isSide('TiO2/ZnO', oxides![0])).toBe(false);
    // A material named as a condition (an atmosphere, a support) is no side; each side's question keeps it.
    const wet = analyseQuestion('Which has the higher conductivity in wet H2, BZY or BZCY?');
    expect(comparedSides(wet)?.map((s) => s.name)).toEqual(['BZY', 'BZCY']);
    expect(sideQuestion(wet, comparedSides(wet)![1], comparedSides(wet)!)).toBe('What is the conductivity of BZCY in wet H2?');
    const supported = analyseQuestion('Which has the lower ASR on a YSZ electrolyte, LSM or LSCF?');
    expect(sideQuestion(supported, comparedSides(supported)![0], comparedSides(supported)!)).toBe('What is the ASR of LSM on a YSZ electrolyte?');
    // Named as a side, the same material is one.
    expect(comparedSides(analyseQuestion('Which is more conductive in air, YSZ or GDC?'))?.map((s) => s.name)).toEqual(['YSZ', 'GDC']);
  });

  it('never crown a side from one side’s evidence: a side with no value at the asked conditions is said, with what it does state', async () => {
    const index = await indexOf(corpusOf([ysz, cermet, gdc600]));
    const a = await answerQuestion(index, QUESTION);
    expect(a.shape).toBe('comparison');
    const text = answerText(a);
    expect(text).toMatch(/^The evidence does not let YSZ and GDC be compared at 800 °C: it states no ionic conductivity at 800 °C for GDC\./);
    expect(text).toMatch(/YSZ: 0\.05 S cm−1 .*“Ionic transport in YSZ electrolytes”/);
    expect(text).toMatch(/GDC: no value at 800 °C in the evidence; it states 0\.1 S cm−1/);
    // The cermet's 2000 S cm−1 is not YSZ's.
    expect(text).not.toContain('2000');
    expect(a.trace.find((t) => t.step === 'sides')?.detail).toMatchObject({ sides: ['YSZ', 'GDC'] });
    // One side of two answered: half an answer, as the answer gate reads it.
    expect(a.gate?.signals.answered).toBe(0.5);
    expect(a.gate?.fitted).toBe(true);
  });

  it('say that neither side can be compared when the evidence states values only of other materials (a composite of a side), at no confidence', async () => {
    const gdcComposite = paper('gdc-lsm', 'LSM-GDC composite cathodes', 'The LSM-GDC composite showed an ionic conductivity of 0.02 S cm−1 at 800 °C in air.');
    const index = await indexOf(corpusOf([cermet, gdcComposite]));
    const a = await answerQuestion(index, QUESTION);
    expect(a.shape).toBe('comparison');
    const text = answerText(a);
    expect(text).toMatch(/^The evidence does not let YSZ and GDC be compared at 800 °C: it states no ionic conductivity at 800 °C for YSZ or GDC\./);
    // Neither the cermet's nor the composite's value is ranked as a side's.
    expect(text).not.toMatch(/2000|0\.02/);
    expect(a.confidence).toBe(0);
  });

  it('give a side no value from a sentence that names a composite of it, even where it also names the side alone', async () => {
    const coarse = paper(
      'coarse',
      'Anodes from coarse zirconia',
      'A Ni–YSZ composite based on coarse YSZ reached an electrical conductivity of 800 S cm−1 at 800 °C in hydrogen.',
    );
    const sides = comparedSides(analyseQuestion(QUESTION))!;
    expect(namesCompositeOf('A Ni–YSZ composite based on coarse YSZ', sides[0])).toBe(true);
    expect(namesCompositeOf('LSM/YSZ and GDC-YSZ bilayers', sides[1])).toBe(true);
    expect(namesCompositeOf('A YSZ-based electrolyte and 8YSZ powder', sides[0])).toBe(false);
    const a = await answerQuestion(await indexOf(corpusOf([coarse, gdc800])), 'Which is more conductive at 800 °C, YSZ or GDC?');
    expect(a.shape).toBe('comparison');
    const text = answerText(a);
    expect(text).not.toMatch(/800 S cm/);
    expect(text).toMatch(/states no conductivity at 800 °C for YSZ/);
  });

  it('name the higher side only when every side has a value at the asked conditions, citing each', async () => {
    const index = await indexOf(corpusOf([ysz, cermet, gdc600, gdc800]));
    const a = await answerQuestion(index, QUESTION);
    expect(a.sentences[0].text).toBe('GDC has the higher ionic conductivity at 800 °C: 0.15 S cm−1, against 0.05 S cm−1 for YSZ.');
    expect(a.sentences[0].citations).toEqual(['paragraph:gdc800:p1', 'paragraph:ysz:p1']);
    expect(a.sentences[0].verdict).toBe('supported');
  });

  it('read a property asked with a comparative adjective ("more conductive") and compare its sides by it', async () => {
    const asked = 'Which is more conductive at 800 °C, YSZ or GDC?';
    const analysis = analyseQuestion(asked);
    expect(analysis.properties).toEqual(['conductivity']);
    expect(sideQuestion(analysis, comparedSides(analysis)![0])).toBe('What is the conductivity of YSZ at 800 °C?');
    // Without a comparative the adjective names no property ("conductive carbon").
    expect(analyseQuestion('conductive carbon was added to the LSCF paste').properties).toEqual([]);
    const a = await answerQuestion(await indexOf(corpusOf([ysz, cermet, gdc600, gdc800])), asked);
    expect(a.shape).toBe('comparison');
    expect(a.sentences[0].text).toBe('GDC has the higher conductivity at 800 °C: 0.15 S cm−1, against 0.05 S cm−1 for YSZ.');
  });

  it('asked at no temperature, compare the sides at a temperature the evidence states each at, or name neither when there is none', async () => {
    const asked = 'Which is more conductive, YSZ or GDC?';
    // YSZ's value is at 800 °C, GDC's at 600 °C: the temperatures differ as much as the materials.
    const apartOnly = await answerQuestion(await indexOf(corpusOf([ysz, gdc600])), asked);
    expect(apartOnly.shape).toBe('comparison');
    const text = answerText(apartOnly);
    expect(text).toMatch(
      /^The evidence states the conductivity of YSZ and GDC at different temperatures \(YSZ at 800 °C, GDC at 600 °C\) and never each at one temperature, so neither is named higher:/,
    );
    expect(text).not.toMatch(/has the higher/);
    expect(text).toMatch(/YSZ: 0\.05 S cm−1 at 800 °C/);
    expect(text).toMatch(/GDC: 0\.1 S cm−1 at 600 °C/);
    // The values are given, the verdict is not: half of what was asked.
    expect(apartOnly.gate?.signals.answered).toBe(0.5);
    // With a YSZ value at 600 °C too, the sides are compared there, not by their best values (0.05 at 800 °C against 0.1 at 600 °C).
    const ysz600 = paper('ysz600', 'YSZ at intermediate temperature', 'The YSZ electrolyte reached an ionic conductivity of 0.01 S cm−1 at 600 °C in air.');
    const shared = await answerQuestion(await indexOf(corpusOf([ysz, ysz600, gdc600])), asked);
    expect(shared.sentences[0].text).toBe(
      'GDC has the higher conductivity at 600 °C (the temperature the evidence states each at): 0.1 S cm−1, against 0.01 S cm−1 for YSZ.',
    );
    expect(shared.sentences[0].citations).toEqual(['paragraph:gdc600:p1', 'paragraph:ysz600:p1']);
    // Values measured at one temperature, or at none the evidence states, are compared as they are.
    const same = await answerQuestion(await indexOf(corpusOf([ysz, gdc800])), asked);
    expect(same.sentences[0].text).toBe('GDC has the higher conductivity: 0.15 S cm−1, against 0.05 S cm−1 for YSZ.');
  });

  it('read a yes/no question weighing one side against the other, and answer yes or no first', async () => {
    const asked = 'Is the ionic conductivity of YSZ higher than that of GDC at 800 °C?';
    expect(comparedSides(analyseQuestion(asked))?.map((s) => s.name)).toEqual(['YSZ', 'GDC']);
    expect(comparedSides(analyseQuestion('Does LSCF have a lower polarization resistance than LSM at 700 °C?'))?.map((s) => s.name)).toEqual(['LSCF', 'LSM']);
    // A question for the materials beyond one named is no two-sided comparison.
    expect(comparedSides(analyseQuestion('Which cathode has a lower polarization resistance at 700 C than La0.8Sr0.2MnO3?'))).toBeNull();
    const index = await indexOf(corpusOf([ysz, gdc800]));
    const no = await answerQuestion(index, asked);
    expect(no.shape).toBe('comparison');
    expect(no.sentences[0].text).toBe('No: GDC has the higher ionic conductivity at 800 °C: 0.15 S cm−1, against 0.05 S cm−1 for YSZ.');
    const yes = await answerQuestion(index, 'Is GDC more conductive than YSZ at 800 °C?');
    expect(yes.sentences[0].text).toBe('Yes: GDC has the higher conductivity at 800 °C: 0.15 S cm−1, against 0.05 S cm−1 for YSZ.');
  });

  it('take a side’s value from its own value question where no sentence ties the property to it by name', async () => {
    const nb3sn = paper('nb3sn', 'Nb3Sn wires', 'The Tc of Nb3Sn is 18 K in the wires studied here.');
    // The sentence says what happens at the transition ("resistivities vanish"), not "Tc".
    const lbco = paper(
      'lbco',
      'Superconductivity in La2−xBaxCuO4 crystals',
      'Both in-plane and out-of-plane resistivities of La2−xBaxCuO4 with x = 0.11 vanish at 30 K.',
    );
    const a = await answerQuestion(await indexOf(corpusOf([nb3sn, lbco])), 'Which has the higher Tc, La2−xBaxCuO4 or Nb3Sn?');
    expect(a.shape).toBe('comparison');
    expect(a.sentences[0].text).toBe('La2−xBaxCuO4 has the higher tc: 30 K, against 18 K for Nb3Sn.');
    expect(a.sentences[0].citations).toEqual(['paragraph:lbco:p1', 'paragraph:nb3sn:p1']);
    expect(a.trace.find((t) => t.step === 'sides')?.detail).toMatchObject({ values: { 'La2−xBaxCuO4': '30 K', Nb3Sn: '18 K' } });
  });

  it('compare a side by the value its own value question gives, before the highest stated of it', async () => {
    const ambient = paper('mgb2', 'Superconductivity in MgB2', 'The Tc of MgB2 is 39 K at ambient pressure, as magnetisation shows.');
    const pressed = paper('mgb2-p', 'MgB2 under pressure', 'Under a pressure of 20 GPa the Tc of MgB2 rises to 45 K in our cells.');
    const other = paper('x', 'A 42 K superconductor', 'The Tc of Ba2YCu4O8 is 42 K in the samples measured here.');
    const a = await answerQuestion(await indexOf(corpusOf([ambient, pressed, other])), 'Which has the higher Tc, MgB2 or Ba2YCu4O8?');
    expect(a.trace.find((t) => t.step === 'sides')?.detail).toMatchObject({ values: { MgB2: '39 K', Ba2YCu4O8: '42 K' } });
    // 39 K, what "What is the Tc of MgB2?" answers, is MgB2's; 45 K under 20 GPa is listed after it, not compared.
    expect(a.sentences[0].text).toBe('Ba2YCu4O8 has the higher tc: 42 K, against 39 K for MgB2.');
    expect(answerText(a)).toMatch(/MgB2: 39 K .*MgB2: 45 K/);
  });
});

describe('comparisons that name no property', () => {
  it('quote each side alone and call neither better, as half an answer at most', async () => {
    const lsm = paper('lsm', 'LSM cathodes for SOFCs', 'LSM is a common SOFC cathode material with excellent electronic conductivity.');
    const lscf = paper('lscf', 'LSCF cathodes for SOFCs', 'LSCF cathodes are mixed ionic-electronic conductors used at intermediate SOFC temperatures.');
    const both = paper('both', 'LSM and LSCF compared', 'Both LSM and LSCF were screen-printed on the electrolyte.');
    const question = 'Which is better for SOFC cathodes, LSM or LSCF?';
    const sides = comparedSides(analyseQuestion(question));
    expect(sides?.map((s) => s.name)).toEqual(['LSM', 'LSCF']);
    expect(sideQuestion(analyseQuestion(question), sides![1], sides!)).toBe('Which is better for SOFC cathodes, LSCF?');
    // Two materials joined by "between" are not weighed against each other.
    expect(comparedSides(analyseQuestion('What forms at the interface between LSCF and YSZ?'))).toBeNull();
    const a = await answerQuestion(await indexOf(corpusOf([lsm, lscf, both])), question);
    expect(a.shape).toBe('comparison');
    const text = answerText(a);
    expect(text).toMatch(/^The question names no measured property to compare LSM and LSCF by, so neither is called better/);
    expect(text).toMatch(/LSM: “LSM is a common SOFC cathode material/);
    expect(text).toMatch(/LSCF: “LSCF cathodes are mixed ionic-electronic conductors/);
    expect(a.gate?.signals.answered).toBeLessThanOrEqual(0.5);
  });
});

describe('comparisons by a property with no value to read', () => {
  it('quote each side’s passage about the property and call neither higher', async () => {
    const tio2 = paper('tio2', 'Noble metal modified TiO2', 'The Pt/TiO2 catalyst raised the methane yield during CO2 photoreduction. TiO2 is cheap.');
    const tio2Other = paper('tio2-b', 'TiO2 films', 'TiO2 films were sputtered on glass substrates for optical studies.');
    const cn = paper('cn', 'Porous g-C3N4 sheets', 'The porous g-C3N4 sheets gave a CO yield twice that of the bulk powder.');
    const question = 'Which has the higher yield, TiO2 or g-C3N4?';
    // "g-C3N4" is one side, not also its "C3N4".
    expect(comparedSides(analyseQuestion(question))?.map((s) => s.name)).toEqual(['TiO2', 'g-C3N4']);
    const a = await answerQuestion(await indexOf(corpusOf([tio2Other, tio2, cn])), question);
    expect(a.shape).toBe('comparison');
    const text = answerText(a);
    expect(text).toMatch(/^The evidence states no yield of TiO2 and g-C3N4 that can be set side by side, so neither is called higher/);
    expect(text).toMatch(/TiO2: “The Pt\/TiO2 catalyst raised the methane yield/);
    expect(text).toMatch(/g-C3N4: “The porous g-C3N4 sheets gave a CO yield/);
  });
});

describe('the asked property as the question words it', () => {
  it('keeps the question’s words and completes a span the lexicon cut short', () => {
    expect(askedPropertyWords(analyseQuestion('Which has the higher peak power density at 600 °C, A2O3 or B2O3?'))).toBe('peak power density');
    expect(askedPropertyWords(analyseQuestion(QUESTION))).toBe('ionic conductivity');
  });
});
