import { beforeAll, describe, expect, it } from 'vitest';
import { answerQuestion } from '../answer/answer.ts';
import { retrieve } from '../pipelines/run.ts';
import { corpusOf, indexOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import type { RetrievalIndex } from './index.ts';
import { statementKind } from './ownership.ts';

// Invented papers: one reports a cell's power density as its own result, a review cites it in wording closer to
// the question, a third paper reports another value.
const corpus = corpusOf([
  {
    id: 'own',
    doi: '10.9999/own',
    title: 'Infiltrated cobaltite cathodes for intermediate-temperature cells',
    paragraphs: [
      { text: 'La0.6Sr0.4CoO3 cathodes were infiltrated into porous scaffolds and fired at 850 °C.', section: 'Experimental' },
      { text: 'Our cell reached 612 mW cm−2 at 650 °C in humidified hydrogen.', section: 'Results' },
    ],
  },
  {
    id: 'review',
    doi: '10.9999/review',
    title: 'Power density of La0.6Sr0.4CoO3 cathode cells: a review',
    paragraphs: [
      {
        text: 'A La0.6Sr0.4CoO3 cathode cell with a power density of 612 mW cm−2 at 650 °C was reported by Ortega et al. [14].',
        section: 'Introduction',
      },
    ],
  },
  {
    id: 'other',
    doi: '10.9999/other',
    title: 'Nickelate cathodes at low temperature',
    paragraphs: [{ text: 'The nickelate cathode cell delivered 230 mW cm−2 at 650 °C.', section: 'Results' }],
  },
  // Unrelated papers, so that the words of the question are rare as in a real library.
  ...Array.from({ length: 20 }, (_, i) => ({
    id: `filler-${i}`,
    doi: `10.9999/filler.${i}`,
    title: `Grain growth in sintered oxide ${i}`,
    paragraphs: [{ text: `Pellets of oxide ${i} were sintered at ${900 + 10 * i} °C for ${i + 1} h and polished.`, section: 'Experimental' }],
  })),
]);

let index: RetrievalIndex;
beforeAll(async () => {
  index = await indexOf(corpus);
});

describe('statementKind', () => {
  it('tells a paper’s own result from one it cites', () => {
    expect(statementKind('We obtained 612 mW cm−2 at 650 °C.', 'Results')).toBe('own');
    expect(statementKind('The cell delivered 612 mW cm−2 at 650 °C.', 'Results')).toBe('own');
    expect(statementKind('612 mW cm−2 at 650 °C was reported by Ortega et al. [14].', 'Results')).toBe('cited');
    expect(statementKind('Cells of this kind reach 612 mW cm−2 [3, 4].', null)).toBe('cited');
    expect(statementKind('Cells of this kind reach 612 mW cm−2.', 'Introduction')).toBe('cited');
  });
});

describe('papers that state the same fact', () => {
  const question = 'Which paper reports a power density of 612 mW cm−2 at 650 °C for a La0.6Sr0.4CoO3 cathode cell?';
  it('ranks the paper reporting the values as its own result above one that cites them', async () => {
    const r = await retrieve(index, question, 'json-qr');
    expect(r.papers[0]).toMatchObject({ paperId: 'own', statesAskedFacts: 'own' });
    expect(r.papers.find((p) => p.paperId === 'review')?.statesAskedFacts).toBe('cited');
    expect(r.papers.find((p) => p.paperId === 'other')?.statesAskedFacts).toBeUndefined();
  });
  it('says in the answer that another paper states the same values, and that it cites them', async () => {
    const a = await answerQuestion(index, question, { pipeline: 'json-qr' });
    expect(a.shape).toBe('which-paper');
    expect(a.sentences[0].text).toMatch(/Infiltrated cobaltite cathodes/);
    const same = a.sentences.at(-1)!;
    expect(same.text).toMatch(
      /^Other papers in the corpus state the same values \(612 mW cm−2, 650 °C\): “Power density of La0\.6Sr0\.4CoO3 cathode cells: a review” \(citing them\)\.$/,
    );
    expect(same.citations).toEqual(['paragraph:review:p1']);
    expect(same.verdict).toBe('supported');
  });
});
