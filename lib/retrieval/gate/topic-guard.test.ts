import { beforeAll, describe, expect, it } from 'vitest';
import type { RetrievalIndex } from '../index.ts';
import { analyseQuestion } from '../question.ts';
import { corpusOf, type FixturePaper, fixtureIndex, indexOf } from '../../../scripts/test-support/retrieval-fixtures.ts';
import { answerQuestion } from '../../answer/answer.ts';
import { qualifierOfGeneric, unknownPropertyWords } from './topic-guard.ts';

let index: RetrievalIndex;
beforeAll(async () => {
  index = await fixtureIndex();
});

describe('the off-topic guard', () => {
  it('reads the property a value question asks of a material only where the lexicon knows none', () => {
    const words = (q: string) => unknownPropertyWords({ analysis: analyseQuestion(q) });
    expect(words('What is the melting point of NiCo2O4?')).toEqual(['melt', 'point']);
    expect(words('What is the peak power density of the La0.6Sr0.4CoO3 cathode?')).toBeNull();
    expect(words('Which paper reports the melting point of NiCo2O4?')).toBeNull();
    expect(words('What is the melting point?')).toBeNull();
    expect(words('What is the humidified hydrogen of the La0.6Sr0.4CoO3 cathode?')).not.toBeNull();
    // "in" and "for" join what is asked to its material as "of" does.
    expect(words('What is the weather in NiCo2O4?')).toEqual(['weather']);
  });

  it('refuses a question the reader reads as outside the field, whatever retrieval found for its words, and says why', async () => {
    for (const q of ['What is the height of the Eiffel Tower?', 'What is the top speed of a Formula 1 car at the Monaco circuit?']) {
      const a = await answerQuestion(index, q);
      expect(a.abstention, q).toMatchObject({ abstain: true, reasons: ['out-of-scope'] });
      expect(a.abstention.explanation).toMatch(/outside the materials literature held here \(question reader: \d+ %\)/);
      expect(a.confidence).toBe(0);
    }
    // An in-field question with the same construction is answered.
    const on = await answerQuestion(index, 'What is the peak power density of the La0.6Sr0.4CoO3 cathode at 600 °C?');
    expect(on.abstention.abstain).toBe(false);
  });

  it('refuses a property no sentence states for the material, and answers where one sentence states both', async () => {
    const off = await answerQuestion(index, 'What is the melting point of NiCo2O4?');
    expect(off.abstention).toMatchObject({ abstain: true, reasons: ['unmatched-terms'] });
    // Refused by retrieval's own check of the question's other words where the reader leans to reading it as off-topic
    // (lib/retrieval/gate/term-coverage.ts), else by this guard; either says what no evidence states.
    expect(off.abstention.explanation).toMatch(
      /^no (retrieved sentence states the melting point of|paragraph of the closest paper mentions melting, point with) NiCo2O4$/,
    );
    const weather = await answerQuestion(index, 'What is the weather in NiCo2O4?');
    expect(weather.abstention.abstain).toBe(true);
    expect(weather.abstention.explanation).toMatch(
      /^no (retrieved sentence states the weather in|paragraph of the closest paper mentions weather with) NiCo2O4$/,
    );
    expect(off.confidence).toBe(0);
    const on = await answerQuestion(index, 'What is the humidified hydrogen of the La0.6Sr0.4CoO3 cathode?');
    expect(on.abstention.abstain).toBe(false);
    expect(on.trace.some((t) => t.step === 'off-topic')).toBe(false);
  });

  it('refuses a value of something described only in words the value’s paper lacks, and keeps it where the paper has them', async () => {
    const off = await answerQuestion(index, 'What temperature were the powders calcined at for the solar cell absorber?');
    expect(off.abstention).toMatchObject({ abstain: true, reasons: ['unmatched-terms'] });
    expect(off.abstention.explanation).toMatch(/^(the paper the value comes from never|no paragraph of the closest paper) mentions solar, cell, absorber/);
    const on = await answerQuestion(index, 'What temperature were the powders calcined at?');
    expect(on.abstention.abstain).toBe(false);
    expect(on.sentences[0].text).toMatch(/1100 °C/);
    // A word or two of several the paper does not use is no absence: the paper states the rest.
    const most = await answerQuestion(index, 'What temperature were the powders calcined at in the solid-state reaction before the electrode tests?');
    expect(most.abstention.abstain).toBe(false);
    expect(most.sentences[0].text).toMatch(/1100 °C/);
  });
});

describe('a property the lexicon knows only by its dimension, made specific by the word before it', () => {
  const paper = (id: string, title: string, text: string): FixturePaper => ({ id, doi: `10.9999/${id}`, title, paragraphs: [{ text }] });
  const calcined = paper('calcined', 'Hydrothermal BaTiO3 powders', 'The BaTiO3 powders were calcined at 700 °C for 4 h in air before pressing.');
  const curie = paper(
    'curie',
    'Ferroelectric transition of BaTiO3 ceramics',
    'The Curie temperature of the BaTiO3 ceramic was 121 °C, where the permittivity peaks.',
  );
  const ground = paper(
    'ground',
    'Ni-Ga oxide catalysts for NOx reduction by CO',
    'For the Ni-Ga oxide catalyst, Na2CO3 and Ga2O3 were mixed and ground in an agate mortar for 30 min, then fired.',
  );

  it('reads the word ("Curie" temperature, "grinding" time), and none where the word is a frame or degree word', () => {
    expect(qualifierOfGeneric(analyseQuestion('What is the Curie temperature of BaTiO3?'))).toBe('Curie');
    expect(qualifierOfGeneric(analyseQuestion('Ni-Ga oxide catalyst for NOx reduction by CO, grinding time'))).toBe('grinding');
    expect(qualifierOfGeneric(analyseQuestion('What is the maximum temperature of the BaTiO3 anneal?'))).toBeNull();
    expect(qualifierOfGeneric(analyseQuestion('What is the ionic conductivity of GDC?'))).toBeNull();
  });

  it('refuses a value whose passage never names the word, and answers from the passage that does (in any of its forms)', async () => {
    const without = await answerQuestion(await indexOf(corpusOf([calcined, ground])), 'What is the Curie temperature of BaTiO3?');
    expect(without.abstention.abstain).toBe(true);
    expect(without.abstention.explanation).toMatch(/states no Curie temperature|mentions Curie/);
    const withCurie = await answerQuestion(await indexOf(corpusOf([calcined, curie, ground])), 'What is the Curie temperature of BaTiO3?');
    expect(withCurie.abstention.abstain).toBe(false);
    expect(withCurie.sentences[0].text).toMatch(/121 °C/);
    const grinding = await answerQuestion(await indexOf(corpusOf([calcined, curie, ground])), 'Ni-Ga oxide catalyst for NOx reduction by CO, grinding time');
    expect(grinding.abstention.abstain).toBe(false);
    expect(grinding.sentences[0].text).toMatch(/30 min/);
  });
});
