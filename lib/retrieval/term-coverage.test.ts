import { describe, expect, it } from 'vitest';
import { answerQuestion } from '../answer/answer.ts';
import { corpusOf, type FixturePaper, indexOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import { analyseQuestion } from './question.ts';
import { subjectCoverage, unanchored } from './term-coverage.ts';

const paper = (id: string, title: string, ...texts: string[]): FixturePaper => ({
  id,
  doi: `10.9999/${id}`,
  title,
  paragraphs: texts.map((text) => ({ text })),
});
// The corpus speaks of France (a supplier's address) and of capital (a cost), never of the two together.
const papers = [
  paper('furnace', 'Curing thermoplastic elastomers', 'The mixture was cured at 353 K for 4 h in a laboratory furnace (Etuves, Chelles, France).'),
  paper('cost', 'Cost of solid oxide electrolysis', 'The capital cost of the stack dominates the price of hydrogen from electrolysis.'),
  paper('sinter', 'Sintering of ceria electrolytes', 'Sintering densifies the green ceria pellet by diffusion at 1400 °C, closing its pores.'),
];

describe('the subject of a question that names no facet', () => {
  it('is its words without the frame, numbers and filler, and only when it names no material, property, value, technique or title', async () => {
    const index = await indexOf(corpusOf(papers));
    expect(unanchored(analyseQuestion('What is the capital of France?'))).toBe(true);
    expect(unanchored(analyseQuestion('What is the ionic conductivity of GDC?'))).toBe(false);
    const france = subjectCoverage(index, analyseQuestion('What is the capital of France?'), 'furnace');
    expect(france).toMatchObject({ words: ['capital', 'France'], missing: ['capital'], met: false });
    expect(subjectCoverage(index, analyseQuestion('Who won the 2018 World Cup?'), 'cost')).toMatchObject({ words: ['World', 'Cup'], met: false });
    expect(subjectCoverage(index, analyseQuestion('Explain sintering, please.'), 'sinter')).toMatchObject({ words: ['sintering'], missing: [], met: true });
  });

  it('refuses a question whose words no paragraph of the closest paper states together, and answers one whose words it states', async () => {
    const index = await indexOf(corpusOf(papers));
    const off = await answerQuestion(index, 'What is the capital of France?');
    expect(off.abstention).toMatchObject({ abstain: true, reasons: ['unmatched-terms'] });
    expect(off.abstention.explanation).toMatch(/^no paragraph of the closest paper mentions capital, France together/);
    expect(off.confidence).toBe(0);
    const on = await answerQuestion(index, 'What is sintering?');
    expect(on.abstention.abstain).toBe(false);
    expect(on.sentences.map((s) => s.text).join(' ')).toMatch(/Sintering densifies/);
  });
});
