import { describe, expect, it } from 'vitest';
import { materialEntity, performanceTuples, sentenceTuples, synthesisTuples, tupleId } from './tuples.ts';

describe('tuples from structured records', () => {
  const entry = {
    source: 'paragraph' as const,
    paragraphId: 'p1',
    method: 'solid-phase',
    targets: [{ text: 'SrTi0.7Fe0.3O3', key: 'SrTi0.7Fe0.3O3', formula: 'SrTi0.7Fe0.3O3' }],
    precursors: [
      { text: 'strontium carbonate', key: 'x', formula: null },
      { text: 'TiO2', key: 'TiO2', formula: 'TiO2' },
    ],
    solvents: [{ text: 'ethanol', key: 'EtOH', formula: 'C2H6O' }],
    additives: [],
    substrates: [{ text: 'nickel foam', key: 'NF', formula: 'Ni' }],
    conditions: { temperature: [{ text: '1100 °C', canonical: [1373.15], unit: 'K', step: 'calcination' }], time: [], atmosphere: [] },
  };
  it('makes synthesized_from, synthesized_by, used_as, grown_on and processed_at tuples with canonical entities', () => {
    const t = synthesisTuples(entry);
    const triples = t.map((x) => [x.subject.key, x.relation, x.object.key]);
    expect(triples).toEqual([
      ['f:Fe0.3O3SrTi0.7', 'synthesized_from', 'f:CO3Sr'],
      ['f:Fe0.3O3SrTi0.7', 'synthesized_from', 'f:O2Ti'],
      ['f:Fe0.3O3SrTi0.7', 'synthesized_by', 'method:solid-phase'],
      ['f:C2H6O', 'used_as', 'n:solvent'],
      ['f:Fe0.3O3SrTi0.7', 'grown_on', 'm:NF'],
      ['f:Fe0.3O3SrTi0.7', 'processed_at', 'v:temperature:1373 K'],
    ]);
    expect(t[3]).toMatchObject({ referenceRelation: 'in_synthesis_of', referenceNode: 'SrTi0.7Fe0.3O3', paragraphId: 'p1' });
    expect(t[5]).toMatchObject({ value: 1373.15, unit: 'K', referenceRelation: 'during', referenceNode: 'calcination' });
  });
  it('keeps the roles of a procedure whose product is not named', () => {
    const t = synthesisTuples({ ...entry, targets: [] }).map((x) => [x.subject.key, x.relation, x.object.key, x.paragraphId]);
    expect(t).toEqual([
      ['f:CO3Sr', 'used_as', 'n:precursor', 'p1'],
      ['f:O2Ti', 'used_as', 'n:precursor', 'p1'],
      ['f:C2H6O', 'used_as', 'n:solvent', 'p1'],
      ['m:NF', 'used_as', 'n:substrate', 'p1'],
    ]);
  });
  it('makes has_property tuples with the value and the condition it was measured at, or none without a material', () => {
    const claim = {
      source: 'paragraph' as const,
      paragraphId: 'p2',
      material: 'La0.6Sr0.4CoO3',
      materialKey: 'x',
      property: 'power-density',
      value: [450],
      unit: 'mW cm^-2',
      canonical: [450],
      canonicalUnit: 'mW/cm^2',
      conditions: [{ text: '600 °C', dimension: 'temperature', canonical: [873.15], unit: 'K' }],
      sentence: 'The cell delivered 450 mW cm−2 at 600 °C.',
      start: 10,
    };
    expect(performanceTuples(claim)).toEqual([
      expect.objectContaining({
        relation: 'has_property',
        object: expect.objectContaining({ key: 'p:power-density' }),
        value: 450,
        unit: 'mW/cm^2',
        referenceRelation: 'measured_at',
        referenceNode: '600 °C',
        start: 10,
        end: 10 + claim.sentence.length,
      }),
    ]);
    expect(performanceTuples({ ...claim, material: null })).toEqual([]);
  });
});

describe('tuples from sentence patterns', () => {
  const triples = (text: string) => sentenceTuples(text, 'p').map((t) => [t.subject.key, t.relation, t.object.key]);
  it('reads doping, use and causal statements, keeping the sentence offsets', () => {
    expect(triples('BaZrO3 was doped with Y2O3 to raise proton conductivity. Sm-doped CeO2 electrolytes were used.')).toEqual([
      ['f:BaO3Zr', 'doped_with', 'f:O3Y2'],
      ['f:CeO2', 'doped_with', 'f:Sm'],
    ]);
    expect(triples('Increasing the sintering temperature increases the grain size. Higher Sr content decreased the activation energy.')).toEqual([
      ['n:sinteringtemperature', 'increases', 'p:size'],
      ['n:srcontent', 'decreases', 'p:activation-energy'],
    ]);
    const t = sentenceTuples('Ni-YSZ was used as the anode support. Oxygen vacancies lead to higher ionic conductivity.', 'p');
    expect(t.map((x) => x.relation)).toEqual(['used_as', 'causes']);
    expect(t[1].sentence).toBe('Oxygen vacancies lead to higher ionic conductivity.');
    expect(t[1].start).toBe(38);
  });
  it('rejects clause fragments, pronouns, generic effects and passive "caused by"', () => {
    expect(triples('This can cause changes in the film. We calculated the change. L is an inductance caused by the cables.')).toEqual([]);
  });
  it('rejects causes cut from a longer phrase, phrase pieces, and the study’s own methods as causes (invented sentences)', () => {
    expect(triples('A mixture of argon and H2 leads to a lower deposition rate.')).toEqual([]);
    expect(triples('A linear fit leads to similar slopes. The simulation results in a lower barrier.')).toEqual([]);
    expect(triples('The grain size and porosity and leads to higher conductivity.')).toEqual([]);
    expect(triples('Oxygen vacancies lead to the generation of defects.')).toEqual([]);
    expect(triples('Thermal annealing leads to higher crystallinity.')).toEqual([['n:thermalannealing', 'causes', 'n:highercrystallinity']]);
  });
});

describe('entities and ids', () => {
  it('gives one key to every spelling of a material', () => {
    expect(materialEntity('yttria-stabilized zirconia').key).toBe(materialEntity('YSZ').key);
    expect(materialEntity('Y2O3-stabilized ZrO2').key).toBe('m:YSZ');
    expect(materialEntity('8 mol% Y2O3-stabilized ZrO2').key).toBe('m:YSZ');
    expect(materialEntity('strontium carbonate').key).toBe(materialEntity('SrCO3').key);
    expect(materialEntity('mystery powder').key).toBe('n:mysterypowder');
  });
  it('derives tuple ids from the stamp and content', () => {
    const [t] = sentenceTuples('BaZrO3 was doped with Y2O3.', 'p');
    expect(tupleId('s1', t)).toBe(tupleId('s1', t));
    expect(tupleId('s1', t)).not.toBe(tupleId('s2', t));
  });
});
