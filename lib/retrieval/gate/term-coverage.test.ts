import { describe, expect, it } from 'vitest';
import { answerQuestion } from '../../answer/answer.ts';
import { corpusOf, type FixturePaper, indexOf } from '../../../scripts/test-support/retrieval-fixtures.ts';
import { analyseQuestion } from '../question.ts';
import { askedWordsCoverage, subjectCoverage, unanchored } from './term-coverage.ts';

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

// A paper on uranium compounds that speaks of atoms and never of protons; one on carbon-fibre composites that never
// mentions bicycles; one on LSCF cathodes with a value.
const named = [
  paper('uranium', 'Magnetism of uranium intermetallics', 'Each uranium atom carries a local moment of 1.2 μB in UGe2 below 52 K.'),
  paper('fibre', 'Over-moulded carbon fibre composites', 'The tensile strength of the carbon fibre laminate reached 620 MPa after moulding.'),
  paper('lscf', 'LSCF cathodes for intermediate-temperature cells', 'The LSCF cathode gave an area-specific resistance of 0.12 Ω cm2 at 700 °C.'),
  // Common words are common: tensile strength is measured throughout a materials corpus, a bicycle is not.
  ...['steel', 'alloy', 'polymer', 'glass', 'ceramic'].map((m) =>
    paper(m, `Tensile tests of ${m}`, `The tensile strength of the ${m} samples was measured at room temperature; the atom probe showed no segregation.`),
  ),
];

describe('what a question that names a facet asks beyond it', () => {
  it('is its other words (no names, values, properties, frame or bracketed chemical names), stated by rarity in one paragraph', async () => {
    const index = await indexOf(corpusOf(named));
    const protons = askedWordsCoverage(index, analyseQuestion('How many protons does a uranium atom have?'), 'uranium');
    expect(protons).toMatchObject({ words: ['protons', 'atom'], missing: ['protons'], met: false });
    const bicycle = askedWordsCoverage(index, analyseQuestion('What is the tensile strength of carbon fibre in bicycle frames?'), 'fibre');
    expect(bicycle?.missing).toContain('bicycle');
    expect(bicycle?.met).toBe(false);
    // A year is part of what is asked; a bracketed name is left to the material checks.
    expect(askedWordsCoverage(index, analyseQuestion('What is the Tc of the uranium compound found in 2040?'), 'uranium')?.missing).toContain('2040');
    expect(askedWordsCoverage(index, analyseQuestion('tensile strength of poly(carbon fibre) laminate'), 'fibre')).toMatchObject({ missing: [], met: true });
    expect(askedWordsCoverage(index, analyseQuestion('What is the area-specific resistance of the LSCF cathode?'), 'lscf')).toMatchObject({ met: true });
    // Words every paragraph uses (a corpus of one paper) weigh alike rather than nothing.
    const one = await indexOf(corpusOf([named[0]]));
    expect(askedWordsCoverage(one, analyseQuestion('How many moments does a uranium atom carry?'), 'uranium')).toMatchObject({ met: true });
    // Unanchored questions are the subject check's.
    expect(askedWordsCoverage(index, analyseQuestion('What is the capital of France?'), 'fibre')).toBeNull();
  });

  it('refuses a question the reader leans to reading as off-topic whose words the closest paper lacks, not a framed question of the field', async () => {
    const index = await indexOf(corpusOf(named));
    const bicycle = await answerQuestion(index, 'What is the tensile strength of carbon fibre in bicycle frames?');
    expect(bicycle.abstention).toMatchObject({ abstain: true, reasons: ['unmatched-terms'] });
    expect(bicycle.abstention.explanation).toMatch(/no paragraph of the closest paper mentions .*bicycle.* with what the question names/);
    // The frame of a question in the field ("I need a number for …") is not what it asks.
    const framed = await answerQuestion(index, 'I need a number for the area-specific resistance of LSCF. Can you give one?');
    expect(framed.abstention.abstain).toBe(false);
    expect(framed.sentences.map((s) => s.text).join(' ')).toMatch(/0\.12 Ω/);
  });
});
