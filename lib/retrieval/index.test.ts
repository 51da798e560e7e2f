import { describe, expect, it } from 'vitest';
import { plainTerms } from '../structure/terms.ts';
import { corpusOf, indexOf } from '../testing/retrieval-fixtures.ts';

// An invented first paragraph the way some corpora store it: title twice, authors run together with their marks,
// an affiliation, an e-mail, then the abstract.
const abstract = 'The Qx2O3 cathode was prepared by a sol-gel route and reached a peak power density of 1.1 W cm−2 at 700 °C.';
const firstParagraph = `A Qx2O3 Cathode A Qx2O3 Cathode LovelaceAda1*CurieMarie2 1Department of Chemistry, University of Nowhere, Springfield 12345 ada@nowhere.edu 4321 ${abstract}`;

describe('the retrieval index', () => {
  it('indexes and quotes a run-together first paragraph from its abstract on, at the stored offsets', async () => {
    const index = await indexOf(
      corpusOf([
        { id: 'qx', doi: '10.9999/qx', title: 'A Qx2O3 cathode', paragraphs: [{ text: firstParagraph }, { text: 'Lovelace measured nothing here.' }] },
      ]),
    );
    const p = index.paragraphs.get('qx:p1');
    expect(p).toBeDefined();
    expect(p!.text).not.toContain('Lovelace');
    expect(p!.text).toHaveLength(firstParagraph.length);
    const [first] = p!.sentenceSpans;
    expect(firstParagraph.slice(first.start, first.end)).toBe(abstract);
    // The author's name finds only the paragraph that names her in its prose; the abstract is still found.
    expect(index.raw.lexical.query(plainTerms('Lovelace')).map((h) => h.id)).toEqual(['qx:p2']);
    expect(index.raw.lexical.query(plainTerms('sol-gel route peak power density')).map((h) => h.id)).toContain('qx:p1');
  });
});
