import { describe, expect, it } from 'vitest';
import { type QuantityFacet, quantityMatch } from './facets.ts';
import { analyseQuestion, asksForPaperList, asksForPapers, writtenName } from './question.ts';

describe('analyseQuestion', () => {
  it('reads a question for papers in the plural by its wording or its construction', () => {
    for (const q of [
      'Collect every article that measured the band gap of TiO2.',
      'I need all the references on the band gap of TiO2 for my thesis. Which are they?',
      'Which papers report the band gap of TiO2?',
    ])
      expect(asksForPaperList(analyseQuestion(q)), q).toBe(true);
    expect(asksForPaperList(analyseQuestion('Which paper reports the band gap of TiO2?'))).toBe(false);
  });
  it('names a material as the question writes it, not by its canonical key, unless the word holds more', () => {
    const a = analyseQuestion('What is the critical temperature of Nb3Ge on La0.6Sr0.4CoO3/Ni supports?');
    expect(writtenName(a, 'f:GeNb3')).toBe('Nb3Ge');
    expect(writtenName(a, 'f:Ni')).toBe('Ni');
  });
  it('separates a quoted title and reads the asked dimension of value questions', () => {
    const a = analyseQuestion('In "Growth of thin films on sapphire", at what temperature was the material heated?');
    expect(a).toMatchObject({ title: 'Growth of thin films on sapphire', intent: 'value', askedDimension: 'temperature' });
    expect(analyseQuestion('In "A study of spinel oxides", for how long was the material maintained?').askedDimension).toBe('time');
    expect(analyseQuestion('In "A study of spinel oxides", what Tc is reported for MgB2?').askedDimension).toBe('temperature');
  });
  it("reads the title and the asked dimension in other frames than the dev set's", () => {
    const a = analyseQuestion('What calcination temperature does "A study of spinel oxides" use?');
    expect(a).toMatchObject({
      title: 'A study of spinel oxides',
      intent: 'value',
      askedDimension: 'temperature',
      body: 'What calcination temperature does  use?',
    });
    expect(analyseQuestion('How many hours of drying were used in "A study of spinel oxides"?').askedDimension).toBe('time');
    expect(analyseQuestion('drying duration in "A study of spinel oxides"').askedDimension).toBe('time');
    expect(analyseQuestion('"A study of spinel oxides": what was the annealing time?').askedDimension).toBe('time');
    expect(analyseQuestion('How hot was the spinel fired in "A study of spinel oxides"?').askedDimension).toBe('temperature');
  });
  it('a "how does … change …" question asks how, not for a value; "how long / how hot" ask for one', () => {
    expect(analyseQuestion('How does strontium doping change the electrical conductivity of lanthanum manganite cathodes?')).toMatchObject({
      intent: 'other',
      askedDimension: null,
      materials: expect.arrayContaining(['f:LaMnO3']),
    });
    expect(analyseQuestion('How long was the powder ball-milled?').intent).toBe('value');
    expect(analyseQuestion('How hot must the cell run to reach 1 W/cm2?').intent).toBe('value');
  });
  it('reads a property asked with a verb ("become superconducting") and the value frames around it', () => {
    for (const q of [
      'At what temperature does MgB2 become superconducting?',
      'Below what temperature does Nb3Sn superconduct?',
      'When does superconductivity set in for Sr0.9La0.1CuO2?',
    ])
      expect(analyseQuestion(q), q).toMatchObject({
        intent: 'value',
        askedDimension: 'temperature',
        properties: expect.arrayContaining(['critical-temperature']),
      });
    // The phrase is the property's, not words the corpus must hold.
    const a = analyseQuestion('Below what temperature does Nb3Sn superconduct?');
    expect(a.body.slice(a.propertySpans.at(-1)!.start, a.propertySpans.at(-1)!.end)).toBe('superconduct');
    // "When" asks for a temperature only of a property that is one; "superconducting" alone names no property.
    expect(analyseQuestion('When was the MgB2 wire annealed?').intent).toBe('other');
    expect(analyseQuestion('Which superconducting wires use MgB2?').properties).toEqual([]);
  });
  it('reads a question written as a note as asking for the value of the property it names', () => {
    for (const [q, dimension] of [
      ['Nb3Sn wires by the bronze route, annealing time?', 'time'],
      ['LSCF cathode on GDC: sintering temp', 'temperature'],
      ['grain size of the Ni-YSZ anode support', 'length'],
      ['Tc of Nb3Ge thin films', 'temperature'],
      ['Ba2YCu3O7 tapes - how long annealed', 'time'],
      ['BaZrO3 proton conductor: heated to what temperature', 'temperature'],
      ['spray-pyrolysed ZnO films, dried at what temp', 'temperature'],
    ] as const)
      expect(analyseQuestion(q), q).toMatchObject({ intent: 'value', askedDimension: dimension });
    // A note that states the value looks for the paper; one about how the property acts, or about the paper that
    // reports it, asks for no value; a question word says how the question asks.
    for (const q of [
      'Nb3Ge thin films Tc 22 K sputtering',
      'ZnO film thickness effect on photocurrent',
      'the reference for the ionic conductivity of BaZrO3',
      'Describe the grain size of the Ni-YSZ anode support',
      'Why is the Tc of Nb3Ge films low?',
    ])
      expect(analyseQuestion(q).intent, q).not.toBe('value');
  });
  it('recognises which-paper questions in several frames', () => {
    for (const q of ['Which paper reports a Tc of 39 K for MgB2?', 'Find the study in which MgB2 showed a Tc of 39 K.', 'What study measured MgB2?']) {
      expect(analyseQuestion(q).intent).toBe('which-paper');
    }
  });
  it('reads materials however written, and keeps material words for the corpus check', () => {
    const a = analyseQuestion('Which paper reports a Tc of 23 K for single-crystalline Ba1−x K x BiO3 grown from strontium carbonate on YSZ?');
    expect(a.entityWords).toContain('Ba1−xKxBiO3');
    expect(a.entityWords).not.toContain('BiO3');
    expect(a.materials).toEqual(expect.arrayContaining(['f:Ba1-xKxBiO3', 'f:CO3Sr', 'm:YSZ']));
    expect(a.quantities.map((q) => q.canonical[0])).toEqual([23]);
    expect(a.properties).toContain('critical-temperature');
  });
  it('reads bounds written in words, met by any stated value within them', () => {
    const comparators = (q: string) => analyseQuestion(q).quantities.map((x) => [x.text, x.comparator]);
    expect(comparators('sub-10 nm copper sulphide rods, reaction temp?')).toEqual([['10 nm', '<=']]);
    expect(comparators('cathodes with more than 500 mW/cm2 at 700 C')).toEqual([
      ['500 mW/cm2', '>='],
      ['700 C', null],
    ]);
    expect(comparators('particles below 5 nm made at about 600 C')).toEqual([
      ['5 nm', '<='],
      ['600 C', '~'],
    ]);
    // Conditions, not bounds.
    expect(comparators('stable over 100 h under 0.1 MPa')).toEqual([
      ['100 h', null],
      ['0.1 MPa', null],
    ]);
    const [bound] = analyseQuestion('rods below 10 nm').quantities;
    const stated = (values: number[]): QuantityFacet => ({ dimension: bound.dimension, values, range: false, text: `${values[0]} nm` });
    expect(quantityMatch([stated([10])], bound)).toBe(1);
    expect(quantityMatch([stated([8])], bound)).toBe(0.5);
    expect(quantityMatch([stated([12])], bound)).toBe(0);
    const [plain] = analyseQuestion('rods of 10 nm').quantities;
    expect(quantityMatch([stated([8])], plain)).toBe(0);
  });
});

describe('papers asked for in the plural', () => {
  it('by what papers are called, references included, and not by a reference electrode or one paper', () => {
    for (const q of [
      'Which papers study BZY?',
      'I need all the references on the Tc of KOs2O6. Which are they?',
      'show all refs on GDC',
      'What studies report LSCF?',
    ])
      expect(asksForPapers(q), q).toBe(true);
    for (const q of ['What is the potential of the reference electrode?', 'Which paper reports 560 mW/cm2?', 'the paper reports a Tc of 39 K'])
      expect(asksForPapers(q), q).toBe(false);
  });
});
