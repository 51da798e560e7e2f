import { describe, expect, it } from 'vitest';
import { evidenceText, frontMatterEnd, isEvidenceParagraph, isReferenceList, nonContentKind } from './non-content.ts';
import { splitSentences } from '../structure/sentences.ts';
import { finishPaper } from './readers/paper.ts';

// Invented front and back matter, written the way article text extraction leaves it.
const authorBlock =
  'Ada Lovelace, Marie Curie, Grace Hopper and Rosalind Franklin * Department of Materials Science, University of Nowhere, Springfield 12345, Utopia E-mail: ada@nowhere.edu Received: 3 May 2020; Accepted: 9 June 2020';
const runTogether =
  'A Perovskite Cathode for Fuel Cells A Perovskite Cathode for Fuel Cells LovelaceAda1*CurieMarie2 1Department of Chemistry, University of Nowhere, Springfield 12345 *ada@nowhere.edu';

describe('front and back matter', () => {
  it('marks an author block with affiliations, e-mail and dates as front matter', () => {
    expect(nonContentKind(authorBlock, null)).toBe('front-matter');
    expect(nonContentKind(runTogether, null)).toBe('front-matter');
  });

  it('marks back-matter sections by their whole heading, not a heading that starts with such a word', () => {
    expect(nonContentKind('We thank the funding agency for its support.', 'Acknowledgements')).toBe('back-matter');
    expect(nonContentKind('The authors declare no conflict of interest.', 'Conflicts of Interest:')).toBe('back-matter');
    expect(nonContentKind('Details are in the supporting files.', '■ ASSOCIATED CONTENT / ■ AUTHOR INFORMATION')).toBe('back-matter');
    expect(nonContentKind('Jane Doe https://orcid.org/0000-0000-0000-0000', 'ORCID iDs')).toBe('back-matter');
    expect(nonContentKind('A hard-core particle model represents the nanoparticles by their centre positions.', 'Reference models')).toBeNull();
  });

  it('keeps content that carries one signal, or prose beside an author block', () => {
    // One signal alone: a figure credit, an instrument at a university.
    expect(nonContentKind('Reproduced with permission from ref. 3. Copyright © 2013, Invented Society. The cathode reached 1.2 W cm−2.', null)).toBeNull();
    // A content sentence with its footnote e-mail.
    expect(
      nonContentKind(
        'Recently, a new family of layered nickelate superconductors with thick oxide blocks was discovered by several groups. * E-mail address: x@y.org',
        null,
      ),
    ).toBeNull();
    // Title, authors and the abstract in one paragraph: the abstract answers questions, so it stays content.
    expect(
      nonContentKind(
        `${runTogether} The cathode was prepared by a sol-gel route and reached a peak power density of 1.1 W cm−2 at 700 °C in humidified hydrogen.`,
        null,
      ),
    ).toBeNull();
    expect(nonContentKind('The LSCF cathode was sintered at 1100 °C for 2 h in air before the cells were tested.', 'Experimental')).toBeNull();
  });

  it('finds where the abstract starts after a run-together title and author block, and blanks the names for evidence', () => {
    const abstract = 'The cathode was prepared by a sol-gel route and reached a peak power density of 1.1 W cm−2 at 700 °C in humidified hydrogen.';
    const withPhone = `${runTogether}; Tel.: +00-12-345-6789; Fax: +00-12-345-6790 1234 ${abstract}`;
    const end = frontMatterEnd(withPhone);
    expect(withPhone.slice(end)).toBe(abstract);
    const text = evidenceText(withPhone);
    expect(text).toHaveLength(withPhone.length);
    expect(text).not.toContain('Lovelace');
    expect(text).not.toContain('nowhere.edu');
    // Offsets stay those of the stored paragraph: the first sentence is the abstract's, at its place.
    const [first] = splitSentences(text);
    expect(withPhone.slice(first.start, first.end)).toBe(abstract);
    // Names run together with marks ("Laguna-BerceroMiguel A.a2") after a title, a digit-marked affiliation.
    const marked = `Title Words Here Title Words Here Laguna-BerceroMiguel A.a2SandhuNavjot Kaur1 1Department of Chemical Engineering, University of Nowhere, Springfield 12345 ${abstract}`;
    expect(marked.slice(frontMatterEnd(marked))).toBe(abstract);
  });

  it('leaves a paragraph alone that does not open with front matter', () => {
    const body = 'The cells were tested at the University of Nowhere. The cathode reached 1.2 W cm−2 at 700 °C; * E-mail: x@y.org for the data.';
    expect(frontMatterEnd(body)).toBe(0);
    expect(evidenceText(body)).toBe(body);
    // All front matter, no prose after it: the paragraph is non-content as a whole instead.
    expect(frontMatterEnd(runTogether)).toBe(0);
  });

  it('is marked at import, kept verbatim, and is never evidence', () => {
    const paper = finishPaper({
      format: 'text',
      source: 'Text',
      paragraphs: [
        { text: authorBlock, section: null, kind: 'body' },
        { text: 'The cathode reached 1.1 W cm−2 at 700 °C.', section: 'Results', kind: 'body' },
        { text: 'We thank the funding agency.', section: 'Acknowledgments', kind: 'body' },
      ],
    });
    expect(paper.paragraphs.map((p) => p.kind)).toEqual(['front-matter', 'body', 'back-matter']);
    expect(paper.paragraphs[0].text).toBe(authorBlock);
    expect(paper.paragraphs.map((p) => isEvidenceParagraph({ ...p, section: p.section ?? null }))).toEqual([false, true, false]);
    // A paragraph stored as body before the rules existed is read by today's rules.
    expect(isEvidenceParagraph({ kind: 'body', text: authorBlock, section: null })).toBe(false);
  });
});

describe('reference lists', () => {
  it('are back matter whatever their heading: runs of entries with volume, pages and year', () => {
    const list =
      'Electrochem. Commun. 13, 374–377 (2011). ChangI., HeoP. & ChaS. W. Thin film fuel cell using a dense Y-doped BaZrO3. Thin Solid Films 534, 286–290 (2013). ParkJ. et al. Pulsed laser deposition of Y-doped BaZrO3 thin films. CIRP Ann. 62, 563–566 (2013).';
    expect(isReferenceList(list)).toBe(true);
    expect(nonContentKind(list, 'Additional Information')).toBe('back-matter');
    expect(isReferenceList('A. Smith, J. Power Sources 195 (2010) 1234. B. Jones, Solid State Ionics 180 (2009) 12. C. Lee, Nature 2019, 571, 231.')).toBe(
      true,
    );
    // Results citing their sources by number or by (Author, year) are content.
    expect(
      isReferenceList('The BZY film reached 0.01 S cm−1 at 600 °C [12], close to bulk values (Kreuer, 2003) and to thin films [13, 14] grown at 700 °C.'),
    ).toBe(false);
    expect(isReferenceList('Cells 1, 2 and 3 (2013 batch) reached 450, 520 and 610 mW cm−2.')).toBe(false);
    expect(nonContentKind('How to cite this article: Lovelace, A. et al. A cobalt-free cathode. Sci. Rep. 6, 22443 (2016).', null)).toBe('back-matter');
  });
});
