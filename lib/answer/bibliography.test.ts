import { describe, expect, it } from 'vitest';
import { corpusOf, type FixturePaper, indexOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import type { PaperBibliography } from '../db/papers.ts';
import { answerQuestion } from './answer.ts';
import { bibliographicField, type BibliographyLookup } from './bibliography.ts';

const paper = (id: string, title: string, text: string): FixturePaper => ({ id, doi: `10.9999/${id}`, title, paragraphs: [{ text }] });
const papers = [
  paper('mgb2', 'Superconductivity at 39 K in magnesium diboride', 'MgB2 becomes superconducting at 39 K, the highest Tc of any intermetallic compound.'),
  paper(
    'lscf',
    'LSCF cathodes for intermediate-temperature fuel cells',
    'The La0.6Sr0.4Co0.2Fe0.8O3 cathode gave a peak power density of 1.2 W cm−2 at 750 °C.',
  ),
];

/** The library's records of the fixture papers, as the database's bibliographyOf returns them. */
function libraryOf(records: Record<string, Partial<PaperBibliography>>): BibliographyLookup & { asked: string[][] } {
  const asked: string[][] = [];
  const lookup = async (ids: string[]) => {
    asked.push(ids);
    return new Map(
      ids
        .filter((id) => records[id])
        .map((id) => [id, { id, title: null, doi: null, authors: [], journal: null, year: null, ...records[id] } satisfies PaperBibliography]),
    );
  };
  return Object.assign(lookup, { asked });
}

describe('a question about who wrote a paper, or where and when it was published', () => {
  it('reads what the question asks of the publication, and nothing from a question about what papers state', () => {
    for (const q of [
      'Who wrote "Superconductivity at 39 K"?',
      'Who are the authors of the LSCF cathode paper?',
      'Who reported a Tc of 39 K in MgB2?',
      'The MgB2 paper was written by whom?',
    ])
      expect(bibliographicField(q)).toBe('authors');
    for (const q of ['In which journal was the LSCF paper published?', 'Where was the MgB2 study published?']) expect(bibliographicField(q)).toBe('venue');
    for (const q of ['When was the MgB2 paper published?', 'What year did the LSCF cathode paper come out?']) expect(bibliographicField(q)).toBe('year');
    for (const q of [
      'What is the Tc of MgB2?',
      'Which paper reports a Tc of 39 K?',
      'How was MgB2 prepared?',
      'Who knows the peak power density of LSCF at 750 °C?',
    ])
      expect(bibliographicField(q)).toBeNull();
  });

  it('names the authors of the paper retrieval found, with the sentence that answers the rest, at the retrieval’s confidence', async () => {
    const index = await indexOf(corpusOf(papers));
    const mgb2 = [...index.papers.values()].find((p) => p.doi === '10.9999/mgb2')!.id;
    const lookup = libraryOf({ [mgb2]: { authors: ['Jun Nagamatsu', 'Norimasa Nakagawa', 'Jun Akimitsu'], year: 2001, journal: 'Nature' } });
    const a = await answerQuestion(index, 'Who reported a Tc of 39 K in MgB2?', { bibliography: lookup });
    expect(a.shape).toBe('bibliography');
    expect(a.sentences[0].text).toBe(
      'The paper is “Superconductivity at 39 K in magnesium diboride” (doi:10.9999/mgb2), by Jun Nagamatsu, Norimasa Nakagawa and Jun Akimitsu (2001).',
    );
    expect(a.sentences[1]).toMatchObject({ text: expect.stringContaining('MgB2 becomes superconducting at 39 K'), verdict: 'supported' });
    expect(a.confidence).toBeGreaterThan(0.5);
    // One lookup, of the top paper only.
    expect(lookup.asked).toEqual([[mgb2]]);
    const venue = await answerQuestion(index, 'In which journal was the MgB2 superconductivity paper published?', { bibliography: lookup });
    expect(venue.sentences[0].text).toBe('The paper is “Superconductivity at 39 K in magnesium diboride” (doi:10.9999/mgb2), published in Nature in 2001.');
  });

  it('says the library holds no author list rather than quoting a sentence as the answer, at confidence 0', async () => {
    const index = await indexOf(corpusOf(papers));
    const lookup = libraryOf(Object.fromEntries([...index.papers.keys()].map((id) => [id, { authors: [] }])));
    const a = await answerQuestion(index, 'Who wrote the paper on LSCF cathodes for intermediate-temperature fuel cells?', { bibliography: lookup });
    expect(a.shape).toBe('bibliography');
    expect(a.sentences[0].text).toBe(
      'The paper is “LSCF cathodes for intermediate-temperature fuel cells” (doi:10.9999/lscf), but the library holds no author list for it.',
    );
    expect(a.confidence).toBe(0);
    // Without the library's records (the evaluation's retrieval alone) the same question is answered from its passages.
    expect((await answerQuestion(index, 'Who wrote the paper on LSCF cathodes for intermediate-temperature fuel cells?')).shape).not.toBe('bibliography');
  });
});
