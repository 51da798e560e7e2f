import { beforeAll, describe, expect, it } from 'vitest';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { analyseQuestion } from '../retrieval/question.ts';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import { answerQuestion } from './answer.ts';
import { unknownPropertyWords } from './topic-guard.ts';

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
    expect(off.abstention.explanation).toBe('no retrieved sentence states the melting point of NiCo2O4');
    const weather = await answerQuestion(index, 'What is the weather in NiCo2O4?');
    expect(weather.abstention).toMatchObject({ abstain: true, explanation: 'no retrieved sentence states the weather in NiCo2O4' });
    expect(off.confidence).toBe(0);
    const on = await answerQuestion(index, 'What is the humidified hydrogen of the La0.6Sr0.4CoO3 cathode?');
    expect(on.abstention.abstain).toBe(false);
    expect(on.trace.some((t) => t.step === 'off-topic')).toBe(false);
  });

  it('refuses a value of something described only in words the value’s paper lacks, and keeps it where the paper has them', async () => {
    const off = await answerQuestion(index, 'What temperature were the powders calcined at for the solar cell absorber?');
    expect(off.abstention).toMatchObject({ abstain: true, reasons: ['unmatched-terms'] });
    expect(off.abstention.explanation).toBe('the paper the value comes from never mentions solar, cell, absorber');
    const on = await answerQuestion(index, 'What temperature were the powders calcined at?');
    expect(on.abstention.abstain).toBe(false);
    expect(on.sentences[0].text).toMatch(/1100 °C/);
  });
});
