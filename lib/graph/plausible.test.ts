import { describe, expect, it } from 'vitest';
import { plausibleProseTuple, plausibleValue } from './plausible.ts';
import { draft, type EntityRef, materialEntity, propertyEntity } from './tuples.ts';

// Invented tuples shaped like the wrong ones a hand-judged sample of the graph held.
const concept = (surface: string): EntityRef => ({ key: `n:${surface.toLowerCase().replace(/\W+/g, '')}`, surface, kind: 'concept', formula: null });
const method = (surface: string): EntityRef => ({ key: `c:${surface.toLowerCase()}`, surface, kind: 'method', formula: null });

/** Every (subject, object) pair of concepts, joined by `relation`, is refused. */
function refusesAll(pairs: string[][], relation: string) {
  for (const [s, o] of pairs) expect(plausibleProseTuple(draft({ subject: concept(s), relation, object: concept(o) })), `${s} / ${o}`).toBe(false);
}

describe('plausibleProseTuple', () => {
  it('keeps tuples that state something about things', () => {
    expect(
      plausibleProseTuple(
        draft({ subject: materialEntity('LaNiO3'), relation: 'has_property', object: propertyEntity('conductivity'), value: 120, unit: 'S/cm' }),
      ),
    ).toBe(true);
    expect(
      plausibleProseTuple(draft({ subject: materialEntity('La0.9Sr0.1Ga0.8Mg0.2O3'), relation: 'synthesized_by', object: method('solid-state reaction') })),
    ).toBe(true);
    expect(plausibleProseTuple(draft({ subject: concept('Hydrogen peroxide'), relation: 'buy_from', object: concept('Chem-Supply') }))).toBe(true);
  });

  it('refuses ends that are fragments of the sentence', () => {
    refusesAll(
      [
        ['due', 'symmetric samples'],
        ['energy', 'either'],
        ['weaker', 'device'],
        ['Authors', 'Nb'],
        ['USA)', 'substrate'],
        ['bisecting B B applied = • φ line', 'filling'],
        ['15.5 K', 'reference systems'],
      ],
      'occur_in',
    );
  });

  it('refuses a material made by another material, a property made at all, and "synthesized according to"', () => {
    expect(plausibleProseTuple(draft({ subject: materialEntity('Ce0.6La0.4O2'), relation: 'prepare_by', object: materialEntity('CeO2') }))).toBe(false);
    expect(plausibleProseTuple(draft({ subject: propertyEntity('open-circuit-voltage'), relation: 'synthesized_by', object: concept('PDPP-DTS') }))).toBe(
      false,
    );
    expect(plausibleProseTuple(draft({ subject: materialEntity('BDT'), relation: 'synthesize', object: concept('According') }))).toBe(false);
  });

  it('refuses a property without a value, a temperature as a property, and a reference that is no measuring condition', () => {
    expect(plausibleProseTuple(draft({ subject: materialEntity('PI'), relation: 'has_property', object: propertyEntity('pressure') }))).toBe(false);
    expect(
      plausibleProseTuple(draft({ subject: materialEntity('O2'), relation: 'has_property', object: propertyEntity('temperature'), value: 873.15, unit: 'K' })),
    ).toBe(false);
    const tc = {
      subject: materialEntity('MgB2'),
      relation: 'has_property' as const,
      object: propertyEntity('critical-temperature'),
      value: 40,
      unit: 'K',
      referenceRelation: 'measured_at',
    };
    expect(plausibleProseTuple(draft({ ...tc, referenceNode: '1950s' }))).toBe(false);
    expect(plausibleProseTuple(draft({ ...tc, referenceNode: '1.5 GPa' }))).toBe(true);
  });

  it('refuses a subject the sentence negates', () => {
    const sentence = 'D vanished above Tc, with no apparent energy scale associated with any depression of the DOS.';
    expect(plausibleProseTuple(draft({ subject: concept('apparent energy scale'), relation: 'associate_with', object: concept('depression'), sentence }))).toBe(
      false,
    );
  });

  it('refuses adjectives and cut phrases as ends, a property as an owner, and a claim the sentence denies or doubts', () => {
    refusesAll(
      [
        ['sudden', 'onset'],
        ['ferric chloride', 'Instead'],
        ['CsPbBr3 QDs', 'efficient'],
        ['crystals', 'while between'],
        ['post-treatments', 'modify'],
        ['computational simulations', 'understand'],
        ['extra slurry', 'out'],
        ['magnetic field', 'parallel'],
      ],
      'show',
    );
    expect(
      plausibleProseTuple(
        draft({ subject: propertyEntity('conductivity'), relation: 'has_property', object: concept('maximum values'), value: 43.5, unit: 'S/cm' }),
      ),
    ).toBe(false);
    const denied = 'The lattice parameter did not show a systematic dependence on x.';
    expect(
      plausibleProseTuple(draft({ subject: concept('lattice parameter'), relation: 'show', object: concept('systematic dependence'), sentence: denied })),
    ).toBe(false);
    const doubted = 'It is unlikely that spark cutting produces pure Zr.';
    expect(plausibleProseTuple(draft({ subject: concept('spark cutting'), relation: 'produce', object: concept('pure Zr'), sentence: doubted }))).toBe(false);
    const stated = 'The pristine film reveals a dense fibrillar nanostructure.';
    expect(
      plausibleProseTuple(draft({ subject: concept('pristine film'), relation: 'reveal', object: concept('dense fibrillar nanostructure'), sentence: stated })),
    ).toBe(true);
  });
  it('refuses ends a reader learns nothing from: the study itself, a count or place, a bare verb, a phrase cut at its end', () => {
    refusesAll(
      [
        ['paper', 'experimental set-up'],
        ['Step 4', 'pictures'],
        ['ITM substrate', 'large number'],
        ['solid', 'two times'],
        ['homogeneous morphologies', 'tuning'],
        ['crystal structure', 'rationalize'],
        ['debonding', 'take place'],
        ['structural analysis', 'valuable information about'],
        ['increased catalytic activity seen', 'specific surface area'],
        ['5(c)', 'three-bilayers structure'],
        ['proportion', 'about 1'],
        ['higher photocatalytic activity', 'following three reasons'],
      ],
      'give',
    );
    // A treatment named by its gerund, and a trivial head qualified by a named thing, stay.
    expect(plausibleProseTuple(draft({ subject: concept('silica films'), relation: 'deposit_by', object: concept('spin-coating') }))).toBe(true);
    expect(plausibleProseTuple(draft({ subject: concept('PL imaging pictures'), relation: 'collect_with', object: concept('imaging CCD') }))).toBe(true);
    expect(plausibleProseTuple(draft({ subject: concept('Single crystals'), relation: 'grow_by', object: concept('self-flux method') }))).toBe(true);
    // "showed no impurity phases": denied.
    const denied = draft({ subject: concept('x-ray diffraction pattern'), relation: 'show', object: concept('impurity phases') });
    expect(plausibleProseTuple(denied)).toBe(true);
    expect(plausibleProseTuple({ ...denied, sentence: 'The x-ray diffraction pattern showed no impurity phases.' })).toBe(false);
  });

  it('refuses values no measurement gives: a negative band gap or Tc, a Tc above room temperature, an efficiency above 100 %, a pressure', () => {
    const value = (property: string, v: number, unit: string) =>
      plausibleValue(draft({ subject: materialEntity('MgB2'), relation: 'has_property', object: propertyEntity(property), value: v, valueMax: v, unit }));
    expect(value('band-gap', -5.35, 'eV')).toBe(false);
    expect(value('critical-temperature', -7, 'K')).toBe(false);
    expect(value('critical-temperature', 1473.15, 'K')).toBe(false);
    expect(value('efficiency', 160, '%')).toBe(false);
    expect(value('pressure', 3.07e10, 'Pa')).toBe(false);
    expect(value('critical-temperature', 39, 'K')).toBe(true);
    expect(value('band-gap', 2.76, 'eV')).toBe(true);
  });
});
