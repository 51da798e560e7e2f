import { beforeAll, describe, expect, it } from 'vitest';
import { corpusOf, indexOf } from '../../../scripts/test-support/retrieval-fixtures.ts';
import type { RetrievalIndex } from '../index.ts';
import { judgeSampleForm, sampleForm } from './sample-forms.ts';

let index: RetrievalIndex;
beforeAll(async () => {
  index = await indexOf(
    corpusOf([
      {
        id: 'crystals',
        doi: null,
        title: 'Superconductivity under pressure in single crystals of CeOBiS2',
        paragraphs: [{ text: 'The Tc of CeOBiS2 reached 3.8 K at 1.62 GPa.' }],
      },
      { id: 'films', doi: null, title: 'Epitaxial growth of LSCF', paragraphs: [{ text: 'LSCF thin films were grown by pulsed laser deposition.' }] },
      { id: 'plain', doi: null, title: 'Oxygen exchange of LSCF', paragraphs: [{ text: 'LSCF reached 0.1 S cm−1 at 600 °C.' }] },
    ]),
  );
});

describe('the sample form a question names, against a paper', () => {
  it('reads one form per question, none when it names several', () => {
    expect(sampleForm('Tc of CeOBiS2 thin films under pressure')?.name).toBe('thin films');
    expect(sampleForm('CeOBiS2 single-crystal resistivity')?.name).toBe('single crystals');
    expect(sampleForm('LSCF nanofibres as cathodes')?.name).toBe('nanofibers');
    expect(sampleForm('films and powders of LSCF')).toBeNull();
    expect(sampleForm('Tc of CeOBiS2 under pressure')).toBeNull();
  });

  it('a paper about another form contradicts; one naming the form states it; one naming none leaves it unverified', () => {
    const paper = (id: string) => [...index.papers.values()].find((p) => p.sourceId === id)!.id;
    expect(judgeSampleForm(index, 'Which paper reports a Tc of 3.8 K for CeOBiS2 thin films?', paper('crystals'))).toEqual({
      asked: 'thin films',
      status: 'contradicted',
      stated: 'single crystals',
    });
    expect(judgeSampleForm(index, 'Which paper grew LSCF films?', paper('films'))?.status).toBe('stated');
    expect(judgeSampleForm(index, 'What is the conductivity of LSCF thin films?', paper('plain'))?.status).toBe('unverified');
    expect(judgeSampleForm(index, 'What is the conductivity of LSCF?', paper('plain'))).toBeNull();
  });
});
