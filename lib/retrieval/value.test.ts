import { describe, expect, it } from 'vitest';
import { paragraphEvidence } from '../../scripts/test-support/retrieval-fixtures.ts';
import { analyseQuestion } from './question.ts';
import { extractValue, MARGIN_CAP } from './value.ts';

const paragraph = (id: string, text: string) => paragraphEvidence(id, text, 'p1');

const answerValue = (question: string, ...texts: string[]) =>
  extractValue(
    texts.map((t, i) => paragraph(String(i), t)),
    analyseQuestion(question),
  )?.text;

describe('extractValue', () => {
  const procedure = 'The solids were dried at 120 degC for 8 h and then calcined at 500 degC for 5 h. The powder was pressed.';
  it('takes the value the sentence ties to the operation the question names', () => {
    expect(answerValue('At what temperature was the material dried?', procedure)).toBe('120 degC');
    expect(answerValue('For how long was the material calcined?', procedure)).toBe('5 h');
    expect(answerValue('How long did the drying step last?', procedure)).toBe('8 h');
  });
  it('does not give one operation the value of the next ("dried and then calcined at 500 °C")', () => {
    expect(
      answerValue(
        'At what temperature was the material dried?',
        'The gel was dried and then calcined at 500 degC for 5 h.',
        'Afterwards it was dried at 80 degC in vacuum.',
      ),
    ).toBe('80 degC');
  });
  it('takes the value stated with the material asked about, also when the text spaces the formula out', () => {
    const text = 'It follows KOs 2 O 6 with T c = 9.6 K and RbOs 2 O 6 with T c = 6.3 K.';
    expect(answerValue('What Tc is reported for RbOs2O6?', text)).toBe('6.3 K');
    expect(answerValue('What Tc is reported for KOs2O6?', text)).toBe('9.6 K');
  });
  it('takes the value stated at the condition the question gives', () => {
    const text = 'The cell gave 610 mW cm−2 at 500 °C. Such a fuel cell has yielded a peak power density of 802 mW cm−2 at 550 °C.';
    expect(answerValue('What power density is reported for the fuel cell at 550 °C?', text)).toBe('802 mW cm−2');
    expect(answerValue('What power density is reported for the fuel cell at 500 °C?', text)).toBe('610 mW cm−2');
  });
  it('does not read the amount a property changes by as its value, but reads a value stated further on', () => {
    expect(answerValue('What is the Tc of MgB2?', 'The overall change in T c of MgB2 is only 0.3 K across the series.')).toBeUndefined();
    expect(answerValue('What is the Tc of MgB2?', 'Under pressure the T c of MgB2 drops by about 1.1 K.')).toBeUndefined();
    expect(answerValue('What is the Tc of MgB2?', 'In MgB2 the T c is pushed up about 5 K by the interband coupling.')).toBeUndefined();
    expect(answerValue('What is the Tc of MgB2?', 'With carbon the T c of MgB2 decreased from 39 K.')).toBe('39 K');
    expect(answerValue('What is the Tc of MgB2?', 'The change in T c of MgB2 is only 0.3 K.', 'Pure MgB2 becomes superconducting with T c = 39 K.')).toBe(
      '39 K',
    );
    // A value after the change that belongs to what follows it is still read.
    expect(
      answerValue('What Tc is reported for La-2125?', 'The rise in T c (but not up to the maximum of the La-2125 system, i.e. ~ 78K) is due to hole filling.'),
    ).toBe('~ 78K');
  });
  it('does not take a value from a clause about another material', () => {
    const text = 'Tantalum exhibits a slight negative α below T c = 4.4 K; what distinguishes this feature in MgB2 is its size.';
    expect(answerValue('What is the Tc of MgB2?', text)).toBeUndefined();
    expect(answerValue('What is the Tc of MgB2?', text, 'MgB2 becomes superconducting at T c = 39 K.')).toBe('39 K');
    // One clause naming both keeps the value.
    expect(answerValue('What is the Tc of MgB2?', 'Unlike Ta, MgB2 has T c = 39 K; tantalum has 4.4 K.')).toBe('39 K');
  });
  it('answers nothing when no value of the asked dimension is stated', () => {
    expect(answerValue('At what temperature was the material dried?', 'The powder was dried overnight in air.')).toBeUndefined();
  });
});

describe('extractValue: "respectively"', () => {
  it('pairs the listed materials with the listed values in order', () => {
    const text = 'Indeed Hg 2 (Ba 0.5 Sr 0.5 ) 2 YCu 2 O 8−δ and Hg 2 Sr 2 YCu 2 O 8−δ are superconducting without Ca doping, respectively at 32 K and 42 K.';
    expect(answerValue('What Tc is reported for Hg2Sr2YCu2O8−δ?', text)).toBe('42 K');
    expect(answerValue('What Tc is reported for LaFeAsO and SmFeAsO?', 'LaFeAsO and SmFeAsO become superconducting at 26 and 55 K, respectively.')).toBe(
      '26 K',
    );
  });
});

describe("extractValue: the value's support", () => {
  const read = (question: string, ...texts: string[]) =>
    extractValue(
      texts.map((t, i) => paragraph(String(i), t)),
      analyseQuestion(question),
    )?.support;
  it('leads by the cap when no other value competes, and counts the other items that state it', () => {
    const s = read(
      'What is the Tc of MgB2?',
      'MgB2 becomes superconducting at 39 K.',
      'The Tc of MgB2 is 39 K at ambient pressure.',
      'MgB2 was pressed into pellets.',
    );
    expect(s).toMatchObject({ margin: MARGIN_CAP, agreeing: 1, deeper: false });
    expect(s!.rank).toBeLessThan(2);
    expect(s!.score).toBeGreaterThan(0);
  });
  it('leads by less when the evidence states another value nearly as tied to the question', () => {
    const alone = read('What is the Tc of MgB2?', 'MgB2 becomes superconducting at 39 K.');
    const rivalled = read('What is the Tc of MgB2?', 'MgB2 becomes superconducting at 39 K.', 'Under pressure the Tc of MgB2 is 35 K.');
    expect(rivalled!.margin).toBeLessThan(alone!.margin);
    expect(rivalled!.agreeing).toBe(0);
  });
});
