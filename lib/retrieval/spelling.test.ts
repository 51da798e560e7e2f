import { describe, expect, it } from 'vitest';
import { correctSpelling, editDistance, learnVocabulary } from './spelling.ts';
import { englishWords } from './english-dictionary.ts';

const vocabulary = learnVocabulary([
  'Superconductivity in layered cobalt oxyhydrate. The superconductivity was confirmed by resistivity.',
  'Photocatalytic reduction of CO2; the reduction rate doubled. Hydrothermal growth, hydrothermal route.',
]);

describe('spelling', () => {
  it('counts transpositions as one edit', () => {
    expect(editDistance('reduciton', 'reduction', 2)).toBe(1);
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
  });
  it('corrects ordinary words to the nearest corpus word and keeps the case of the first letter', () => {
    const r = correctSpelling(vocabulary, 'Supercondutivity of cobalt oxyhydrate; CO2 reducton by hydrotermal route');
    expect(r.text).toBe('Superconductivity of cobalt oxyhydrate; CO2 reduction by hydrothermal route');
    expect(r.corrections.map((c) => c.from)).toEqual(['Supercondutivity', 'reducton', 'hydrotermal']);
  });
  it('never corrects a name: a capitalised word inside a sentence stays as typed, and an ordinary word beside it is corrected', () => {
    const novel = learnVocabulary(['A novel cathode. The novel route and the novel method. Reduction of the oxide, and its reduction rate.']);
    const r = correctSpelling(novel, 'Which cathode won the Nobel prize for its reducton? After Stober, the Nobel one.');
    expect(r.text).toBe('Which cathode won the Nobel prize for its reduction? After Stober, the Nobel one.');
    expect(r.corrections).toEqual([{ from: 'reducton', to: 'reduction' }]);
  });
  it('leaves formulas, abbreviations, short words and words too far from any corpus word alone', () => {
    const q = 'HfB12 ScB12 SOFC gold xylophone';
    expect(correctSpelling(vocabulary, q)).toEqual({ text: q, corrections: [] });
  });
  it('joins a formula typed in lower case with spaces, and leaves ordinary short words alone', () => {
    const r = correctSpelling(vocabulary, 'gd sr2 ru cu2 o8 superconductor with tc 26.5 kelvin, which paper');
    expect(r.text).toBe('GdSr2RuCu2O8 superconductor with tc 26.5 kelvin, which paper');
    expect(r.corrections[0]).toEqual({ from: 'gd sr2 ru cu2 o8', to: 'GdSr2RuCu2O8' });
    expect(correctSpelling(vocabulary, 'la0.6 sr0.4 co o3 cathode at 700 C').text).toBe('La0.6Sr0.4CoO3 cathode at 700 C');
    expect(correctSpelling(vocabulary, 'tc of gd sr2 ru cu2 o8').text).toBe('tc of GdSr2RuCu2O8');
    expect(correctSpelling(vocabulary, 'tc gd sr2 ru cu2 o8').text).toBe('tc GdSr2RuCu2O8');
    for (const q of ['as in b 2 at 5 K', 'no he at 300 K in air', 'Is it in as cast Ni?', 'cu2 o film', 'v2 of the cell', 'co2 n2 adsorption', 'mg b2 wires'])
      expect(correctSpelling(vocabulary, q).text).toBe(q);
  });
  it('leaves an English word the corpus never uses as written, and still corrects a typo with the dictionary at hand', async () => {
    const withPresent = learnVocabulary(['The present work. The present results. Reduction at present.']);
    // Without the dictionary "president" is one letter from the corpus's "present" (two edits allowed at 8+ letters).
    expect(correctSpelling(withPresent, 'Who is the president of France').text).toBe('Who is the present of France');
    const isEnglish = await englishWords();
    expect(correctSpelling(withPresent, 'Who is the president of France', isEnglish)).toEqual({ text: 'Who is the president of France', corrections: [] });
    // Typos are in no dictionary; a British spelling the US dictionary lacks still meets the corpus's word.
    const r = correctSpelling(vocabulary, 'Supercondutivity by the hydrotermal route', isEnglish);
    expect(r.text).toBe('Superconductivity by the hydrothermal route');
    expect(correctSpelling(learnVocabulary(['vapor deposition, vapor phase']), 'vapour deposition', isEnglish).text).toBe('vapor deposition');
  });
  it('writes a British spelling the American way where the corpus writes it so more often, and only then', async () => {
    const isEnglish = await englishWords();
    const corpus = learnVocabulary([
      'Sulfur tolerance of the sulfur-free anode; sulfur poisoning. One paper writes sulphur.',
      'Vapor deposition and vapor phase growth; a vapour once. The powders were characterized and analyzed. Fiber mats, fibers.',
      'Four probes for four hours in the tour of the contour. The centre of the cell.',
    ]);
    const r = correctSpelling(corpus, 'Sulphur tolerance after vapour deposition, characterised and analysed, of fibre mats', isEnglish);
    expect(r.text).toBe('Sulfur tolerance after vapor deposition, characterized and analyzed, of fiber mats');
    expect(r.corrections).toContainEqual({ from: 'Sulphur', to: 'Sulfur' });
    // Words the rules would bend but the corpus does not write otherwise stay: four, contour, centre (no "center" here).
    expect(correctSpelling(corpus, 'four point probe at the centre of the contour', isEnglish).corrections).toEqual([]);
  });
  it('asks the dictionary once per distinct word of a question, however often the word recurs', () => {
    const asked: string[] = [];
    const counting = (w: string) => {
      asked.push(w);
      return w === 'president';
    };
    const r = correctSpelling(learnVocabulary(['The present work.']), 'president president President and the president', counting);
    expect(r.text).toBe('president president President and the president');
    expect(asked.filter((w) => w === 'president')).toHaveLength(1);
  });
});
