import { beforeAll, describe, expect, it } from 'vitest';
import { corpusOf, indexOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import { statesValue } from './coverage.ts';
import type { RetrievalIndex } from './index.ts';
import { analyseQuestion } from './question.ts';

// One invented paper whose sentences state values without repeating what they are values of.
const paragraphs = [
  'Cells with a layered perovskite anode were tested in hydrogen. The long-term test ran at 0.5 A cm−2 and 750 °C for 420 hours. The total electrode polarisation was 0.30 Ω cm2.',
  'With further compression the material becomes superconducting again, reaching 40.2 K at 12.2 GPa.',
];
const corpus = corpusOf([
  {
    id: 'cv',
    doi: '10.9999/cv',
    title: 'Pressure and polarisation in two invented materials',
    paragraphs: paragraphs.map((text) => ({ text, section: 'Results', role: 'performance' })),
  },
]);

let index: RetrievalIndex;
beforeAll(async () => {
  index = await indexOf(corpus);
});

const stated = (question: string) => {
  const analysis = analyseQuestion(question);
  return analysis.quantities.map((q) => [q.text, statesValue(index, analysis, 'cv', q)]);
};

describe('statesValue', () => {
  it('takes a unit measured by one property as naming it (Ω cm², A cm⁻²)', () => {
    expect(stated('Find the study in which a cell showed an area-specific resistance of 300 mΩ cm².')).toEqual([['300 mΩ cm²', true]]);
    expect(stated('a cell with a current per unit electrode area of 500 mA cm⁻²')).toEqual([['500 mA cm⁻²', true]]);
  });
  it('takes two of the question’s values stated in one sentence as its fact, whatever the sentence calls the material', () => {
    expect(stated('at 12.2 GPa Tl0.6Rb0.4Fe1.67Se2 superconducts again at 40.2 K')).toEqual([
      ['12.2 GPa', true],
      ['40.2 K', true],
    ]);
  });
  it('does not take a generic value stated for something else', () => {
    // 750 °C is in the paper, but in no sentence about Tl0.6Rb0.4Fe1.67Se2 or its conductivity.
    expect(stated('the conductivity of Tl0.6Rb0.4Fe1.67Se2 at 750 °C')).toEqual([['750 °C', false]]);
    // Alone, 40.2 K is stated in a sentence that names neither the material nor a transition temperature.
    expect(stated('Tl0.6Rb0.4Fe1.67Se2 superconducts at 40.2 K')).toEqual([['40.2 K', false]]);
  });
});
