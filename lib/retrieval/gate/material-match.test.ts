import { beforeAll, describe, expect, it } from 'vitest';
import { corpusOf, indexOf } from '../../../scripts/test-support/retrieval-fixtures.ts';
import { paperFacets } from '../coverage.ts';
import type { RetrievalIndex } from '../index.ts';
import { addedElements, familyKnown, type MaterialStatus, materialVerdicts, mixedNames, namedMaterials, withoutDescriptor } from './material-match.ts';
import { analyseQuestion } from '../question.ts';

let index: RetrievalIndex;
beforeAll(async () => {
  index = await indexOf(
    corpusOf([
      {
        id: 'gdc',
        doi: null,
        title: 'Thin electrolytes for intermediate-temperature cells',
        paragraphs: [{ text: 'A dense Ce0.9Gd0.1O2−δ electrolyte reached 0.1 S cm−1 at 800 °C.' }],
      },
      {
        id: 'lsc',
        doi: null,
        title: 'Cobalt-rich cathodes',
        paragraphs: [{ text: 'La0.6Sr0.4CoO3−δ powders were calcined at 900 °C.' }],
      },
      {
        id: 'pd',
        doi: null,
        title: 'Impregnated cathodes',
        paragraphs: [{ text: 'The Pd+LSM−YSZ cathode reached 0.7 A cm−2 at 750 °C.' }],
      },
      {
        id: 'family',
        doi: null,
        title: 'Strontium-doped manganites',
        paragraphs: [{ text: 'The La1−xSrxMnO3 series was prepared by the citrate route.' }],
      },
      {
        id: 'salt',
        doi: null,
        title: 'Nickel hydroxide nanosheets',
        paragraphs: [{ text: 'Nickel sulfate NiSO4 and urea were dissolved in water.' }],
      },
    ]),
  );
});

/** The verdict on each named material of `question` against paper `paperId`. */
const verdicts = (question: string, paperId: string): MaterialStatus[] =>
  materialVerdicts(index, analyseQuestion(question), paperId, paperFacets(index, paperId).materials).map((v) => v.status);

describe('names compare after their notation is normalised', () => {
  it('a dopant phrase, in symbols or names, is met by the doped formula', () => {
    for (const q of ['a Gd-doped ceria electrolyte', 'a gadolinium-doped CeO2 electrolyte', 'a Gd doped CeO2 electrolyte'])
      expect(verdicts(`Which paper reports ${q}?`, 'gdc'), q).toEqual(['stated']);
  });

  it('a composition written as its family (x, δ) is met by the formula, and the reverse leaves the composition unchecked', () => {
    expect(verdicts('Which paper reports La1−xSrxCoO3 cathodes?', 'lsc')).toEqual(['stated']);
    expect(verdicts('Which paper reports La0.6Sr0.4CoO3 powders?', 'lsc')).toEqual(['stated']);
    expect(verdicts('Which paper reports La0.7Sr0.3MnO3?', 'family')).toEqual(['family']);
  });

  it('a hydrate in any notation is its salt', () => {
    for (const q of ['NiSO4·6H2O', 'NiSO4*6H2O', 'NiSO4.6H2O']) expect(verdicts(`Which paper started from ${q}?`, 'salt'), q).toEqual(['stated']);
    expect(namedMaterials(analyseQuestion('from NiSO4.6H2O')).map((m) => m.keys)).toEqual([['f:H12NiO10S', 'f:NiO4S']]);
  });

  it('another dopant, host or composition contradicts; a material of another family is absent', () => {
    expect(verdicts('Which paper reports a Sm-doped ceria electrolyte?', 'gdc')).toEqual(['contradicted']);
    expect(verdicts('Which paper reports Ce0.9Sm0.1O2−δ?', 'gdc')).toEqual(['contradicted']);
    expect(verdicts('Which paper reports Zr0.9Gd0.1O2−δ?', 'gdc')).toEqual(['contradicted']);
    expect(verdicts('Which paper reports Ce0.8Gd0.2O2−δ?', 'gdc')).toEqual(['contradicted']);
    expect(verdicts('Which paper reports MgB2?', 'gdc')).toEqual(['absent']);
  });

  it('the corpus knows a material in any notation of its family', () => {
    expect(familyKnown(index, 'La1−xSrxCoO3')).toBe(true);
    expect(familyKnown(index, 'La0.8Sr0.2MnO3')).toBe(true);
    expect(familyKnown(index, 'NiSO4·6H2O')).toBe(true);
    expect(familyKnown(index, 'Ba0.5Sr0.5Co0.8Fe0.2O3')).toBe(false);
  });

  it('a lexicon name is of its formula’s family: met by a member, contradicted by a sibling, each part of a composite on its own', () => {
    expect(verdicts('Which paper reports a GDC electrolyte reaching 0.1 S cm−1?', 'gdc')).toEqual(['stated']);
    expect(verdicts('Which paper reports an SDC electrolyte reaching 0.1 S cm−1?', 'gdc')).toEqual(['contradicted']);
    expect(namedMaterials(analyseQuestion('a NiO-SDC anode')).map((m) => m.keys)).toEqual([['f:NiO'], ['m:SDC']]);
  });

  it('an element put onto a material is held to the paper: another element in that role contradicts it', () => {
    expect(addedElements('a Ru-impregnated LSM-YSZ cathode').map((a) => a.keys)).toEqual([['f:Ru']]);
    expect(addedElements('a ruthenium-loaded titania').map((a) => a.keys)).toEqual([['f:Ru']]);
    const v = (q: string) =>
      materialVerdicts(index, analyseQuestion(q), 'pd', paperFacets(index, 'pd').materials).filter((m) => m.keys[0] === 'f:Ru' || m.keys[0] === 'f:Pd');
    expect(v('Which paper reports a Ru-impregnated LSM-YSZ cathode?').map((m) => [m.status, m.stated])).toEqual([['contradicted', 'Pd+LSM−YSZ']]);
    expect(v('Which paper reports a Pd-impregnated LSM-YSZ cathode?').map((m) => m.status)).toEqual(['stated']);
  });

  it('a mixed compound named in words is one material of the family of all its elements, not its parts', () => {
    expect(mixedNames('strontium titanium oxide photocatalysts').map((m) => [m.written, m.family])).toEqual([['strontium titanium oxide', 'O-Sr-Ti']]);
    expect(mixedNames('lithium iron phosphate cathodes')[0].family).toBe('Fe-Li-O-P');
    expect(mixedNames('copper zinc tin sulfide films')[0].family).toBe('Cu-S-Sn-Zn');
    // Names joined by words, or an element alone, are not one compound.
    expect(mixedNames('iron and cobalt oxide')).toEqual([]);
    expect(mixedNames('annealed in nitrogen at 500 °C')).toEqual([]);
    const named = namedMaterials(analyseQuestion('Which paper made strontium titanium oxide films?'));
    expect(named.find((m) => m.written === 'strontium titanium oxide')?.family).toBe('O-Sr-Ti');
  });

  it('an acronym or formula with a participle after it is known by its name', () => {
    for (const [w, core] of [
      ['GDC-infiltrated', 'GDC'],
      ['LSM-based', 'LSM'],
      ['YSZ-supported', 'YSZ'],
      ['La0.6Sr0.4CoO3−δ-coated', 'La0.6Sr0.4CoO3−δ'],
      ['NiO–Gd-doped', 'NiO'],
    ])
      expect(withoutDescriptor(w), w).toBe(core);
    // A word of prose is not a name with a descriptor.
    expect(withoutDescriptor('well-ordered')).toBe('well-ordered');
  });
});
