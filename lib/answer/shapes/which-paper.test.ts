import { describe, expect, it } from 'vitest';
import { corpusOf, type FixturePaper, indexOf } from '../../../scripts/test-support/retrieval-fixtures.ts';
import { answerQuestion } from '../answer.ts';

const paper = (id: string, title: string, text: string): FixturePaper => ({ id, doi: `10.9999/${id}`, title, paragraphs: [{ text }] });
const papers = [
  paper('bzy-1', 'Proton conduction in BaZr0.8Y0.2O3 electrolytes', 'Dense Y-doped BaZrO3 pellets conducted protons at 0.01 S cm−1 at 600 °C in wet hydrogen.'),
  paper('bzy-2', 'Grain boundaries in yttrium-doped barium zirconate', 'The grain boundaries of Y-doped BaZrO3 block proton transport below 400 °C.'),
  paper('bzy-3', 'Thin-film BZY fuel cells', 'A Y-doped BaZrO3 thin film electrolyte gave 0.7 W cm−2 at 600 °C as a proton conductor.'),
  paper('ysz', 'Oxide-ion conduction in YSZ', 'YSZ conducts oxide ions at 0.05 S cm−1 at 800 °C.'),
];

describe('a plural “which papers” question', () => {
  it('lists every retrieved paper that names what it asks about, once each with its sentence, and not the others', async () => {
    const index = await indexOf(corpusOf(papers));
    const a = await answerQuestion(index, 'Which papers study Y-doped BaZrO3 as a proton conductor?');
    expect(a.shape).toBe('which-paper');
    expect(a.sentences[0].text).toBe('3 papers among those retrieved name what the question asks about, best first:');
    const listed = a.sentences.slice(1).map((s) => s.citations[0]);
    expect(listed.sort()).toEqual(['paragraph:bzy-1:p1', 'paragraph:bzy-2:p1', 'paragraph:bzy-3:p1']);
    expect(a.sentences.slice(1).every((s) => s.verdict === 'supported')).toBe(true);
    // One paper asked for: the best one, as before.
    const one = await answerQuestion(index, 'Which paper reports a Y-doped BaZrO3 thin film electrolyte giving 0.7 W cm−2 at 600 °C?');
    expect(one.sentences[0].text).toBe('The paper is “Thin-film BZY fuel cells” (doi:10.9999/bzy-3).');
  });

  it('lists the papers on what it names whatever the question says of why it asks (a review, a thesis)', async () => {
    const index = await indexOf(corpusOf(papers));
    for (const q of [
      "I'm writing a review on Y-doped BaZrO3 proton conductors. Which papers should I read?",
      'To avoid missing anything in my thesis, which publications have discussed Y-doped BaZrO3 as a proton conductor?',
      // Papers called references: "all the references on …".
      'I need all the references on Y-doped BaZrO3 proton conductors for my thesis. Which are they?',
    ]) {
      const a = await answerQuestion(index, q);
      expect(a.abstention.abstain, q).toBe(false);
      expect(a.sentences[0].text, q).toMatch(/^3 papers among those retrieved name what the question asks about/);
    }
  });

  it('names every paper even where one paper’s paragraphs fill the top of the ranking', async () => {
    // Ten paragraphs of one paper about proton conductors rank above the other papers' one each.
    const many: FixturePaper = {
      id: 'review',
      doi: '10.9999/review',
      title: 'A review of proton-conducting electrolytes',
      paragraphs: Array.from({ length: 10 }, (_, i) => ({
        text: `Proton-conducting electrolytes, part ${i + 1}: proton-conducting oxides such as Y-doped BaZrO3 conduct protons.`,
      })),
    };
    const index = await indexOf(corpusOf([many, ...papers]));
    const a = await answerQuestion(index, 'Which papers study Y-doped BaZrO3 as a proton conductor?', { k: 5 });
    const cited = new Set(a.sentences.slice(1).map((s) => s.citations[0]?.split(':')[1]));
    expect([...cited].sort()).toEqual(['bzy-1', 'bzy-2', 'bzy-3', 'review']);
  });
});

describe('other papers stating the asked values', () => {
  it('are named only with an item that shows the values: a citation that does not show the claim is no citation', async () => {
    const { sameFactSentence } = await import('./which-paper.ts');
    const hit = (paperId: string, evidenceIds: string[]) => ({
      paperId,
      doi: `10.9999/${paperId}`,
      title: paperId,
      score: 1,
      evidenceIds,
      statesAskedFacts: 'own' as const,
    });
    const items = [
      { id: 'a:p1', matched: { quantities: [] } },
      { id: 'b:p3', matched: { quantities: [] } },
      { id: 'b:p9', matched: { quantities: ['1.08 V'] } },
    ];
    const s = sameFactSentence(['1.08 V'], [hit('a', ['a:p1']), hit('b', ['b:p3', 'b:p9'])] as never, items);
    expect(s?.text).toBe('Other papers in the corpus state the same values (1.08 V): “b”.');
    expect(s?.citations).toEqual(['b:p9']);
    expect(sameFactSentence(['1.08 V'], [hit('a', ['a:p1'])] as never, items)).toBeNull();
    // An item showing the temperature but not the value does not show the claim "the same values (1.08 V, 600 °C)".
    const partly = [{ id: 'c:p2', matched: { quantities: ['600 °C'] } }];
    expect(sameFactSentence(['1.08 V', '600 °C'], [hit('c', ['c:p2'])] as never, partly)).toBeNull();
  });
});
