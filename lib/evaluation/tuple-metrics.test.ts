import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { readGoldTuples } from './graph-gold.ts';
import { sameEntity, sameObject, scoreTuples } from './tuple-metrics.ts';

describe('scoreTuples', () => {
  const gold = [
    { paragraphId: 'p1', subject: 'La0.6Sr0.4CoO3', relation: 'has_property', object: 'power density' },
    { paragraphId: 'p1', subject: 'yttria-stabilized zirconia', relation: 'has_property', object: 'conductivity' },
    { paragraphId: 'p2', subject: 'LiMn2O4', relation: 'synthesized_from', object: 'lithium carbonate' },
  ];
  it('matches after canonicalisation, once per gold tuple, per paragraph and relation', () => {
    const pred = [
      { paragraphId: 'p1', subject: 'La0.6Sr0.4CoO3 cathode', relation: 'has_property', object: 'p:power-density' },
      { paragraphId: 'p1', subject: 'La0.6Sr0.4CoO3', relation: 'has_property', object: 'p:power-density' }, // duplicate: no second match
      { paragraphId: 'p1', subject: 'YSZ', relation: 'has_property', object: 'p:conductivity' },
      { paragraphId: 'p2', subject: 'LiMn2O4', relation: 'synthesized_from', object: 'Li2CO3' },
      { paragraphId: 'p3', subject: 'LiMn2O4', relation: 'synthesized_from', object: 'Li2CO3' }, // other paragraph
    ];
    const s = scoreTuples(gold, pred);
    expect(s).toMatchObject({ n_gold: 3, n_pred: 5, precision: 0.6, recall: 1, f1: 0.75 });
    expect(s.per_relation.synthesized_from).toMatchObject({ n_gold: 1, n_pred: 2, precision: 0.5, recall: 1 });
  });
  it('compares entities and properties by canonical form', () => {
    expect(sameEntity('strontium carbonate', 'SrCO3')).toBe(true);
    expect(sameEntity('Ni-YSZ anode', 'Ni-YSZ')).toBe(true);
    expect(sameEntity('Ni', 'Co')).toBe(false);
    expect(sameObject('has_property', 'Tc', 'p:critical-temperature')).toBe(true);
    expect(sameObject('has_property', 'power density', 'p:conductivity')).toBe(false);
  });
});

describe('readGoldTuples', () => {
  const write = (name: string, rows: unknown[]) => {
    const f = path.join(tempDir(), name);
    fs.writeFileSync(f, rows.map((r) => JSON.stringify(r)).join('\n'));
    return f;
  };
  it('maps each gold format to Assay relations (invented rows)', async () => {
    expect(await readGoldTuples(write('polyie.jsonl', [{ paragraph_id: 'a:p1', compound: 'P3HT', property: 'Tg', value: '12 °C' }]), 'polyie')).toEqual([
      { paragraphId: 'a:p1', subject: 'P3HT', relation: 'has_property', object: 'Tg', value: '12 °C' },
    ]);
    expect(await readGoldTuples(write('sm.jsonl', [{ material: 'MgB2', tcValue: '39 K', spans: { tcValue: { paragraph_id: 'b:p2' } } }]), 'supermat')).toEqual([
      { paragraphId: 'b:p2', subject: 'MgB2', relation: 'has_property', object: 'critical temperature', value: '39 K' },
    ]);
    const sofc = await readGoldTuples(
      write('sofc.jsonl', [
        { paragraph_id: 'c:p1', slots: { device: 'cell', cathode_material: 'LSCF', power_density: '1 W cm−2', working_temperature: '800 °C' } },
      ]),
      'sofc',
    );
    expect(sofc).toEqual([{ paragraphId: 'c:p1', subject: 'LSCF', relation: 'has_property', object: 'power density', value: '1 W cm−2' }]);
    const mspt = await readGoldTuples(
      write('mspt.jsonl', [
        {
          entities: [
            { id: 'T1', text: 'LiFePO4', paragraph_id: 'd:p1' },
            { id: 'T2', text: 'Li2CO3', paragraph_id: 'd:p1' },
            { id: 'T3', text: 'ethanol', paragraph_id: 'd:p1' },
          ],
          events: [
            { id: 'E1', args: [{ role: 'Recipe_Target', entity: 'T1' }] },
            {
              id: 'E2',
              args: [
                { role: 'Recipe_Precursor', entity: 'T2' },
                { role: 'Solvent_Material', entity: 'T3' },
              ],
            },
          ],
        },
      ]),
      'mspt',
    );
    expect(mspt).toEqual([
      { paragraphId: 'd:p1', subject: 'LiFePO4', relation: 'synthesized_from', object: 'Li2CO3' },
      { paragraphId: 'd:p1', subject: 'ethanol', relation: 'used_as', object: 'solvent' },
    ]);
    const e = (id: string, type: string, text: string, paragraph_id: string | null = 'e:p1') => ({ id, type, text, paragraph_id });
    const mulms = await readGoldTuples(
      write('mulms.jsonl', [
        {
          entities: [
            e('M1', 'MEASUREMENT', 'was measured'),
            e('A', 'MAT', 'WO3'),
            e('P', 'PROPERTY', 'band gap'),
            e('V', 'VALUE', '2.7 eV'),
            e('R', 'MAT', 'electrocatalyst'),
            e('D', 'MAT', 'N'),
            e('G', 'MAT', 'graphene'),
            e('C', 'DEV', 'solar cell'),
            e('F', 'FORM', 'films'),
            e('X', 'MAT', 'Ni', 'e:p2'),
          ],
          relations: [
            { id: 'R1', type: 'measuresProperty', head: 'M1', tail: 'P' },
            { id: 'R2', type: 'conditionSampleFeatures', head: 'M1', tail: 'A' },
            { id: 'R3', type: 'propertyValue', head: 'P', tail: 'V' },
            { id: 'R4', type: 'usedAs', head: 'A', tail: 'R' },
            { id: 'R5', type: 'dopedBy', head: 'G', tail: 'D' },
            { id: 'R6', type: 'usedIn', head: 'A', tail: 'C' },
            { id: 'R7', type: 'hasForm', head: 'A', tail: 'F' },
            // Across paragraphs: not a paragraph-level gold fact.
            { id: 'R8', type: 'usedAs', head: 'X', tail: 'R' },
          ],
        },
      ]),
      'mulms',
    );
    expect(mulms).toEqual([
      { paragraphId: 'e:p1', subject: 'WO3', relation: 'used_as', object: 'electrocatalyst', value: null },
      { paragraphId: 'e:p1', subject: 'graphene', relation: 'doped_with', object: 'N', value: null },
      { paragraphId: 'e:p1', subject: 'WO3', relation: 'part_of', object: 'solar cell', value: null },
      { paragraphId: 'e:p1', subject: 'WO3', relation: 'has_property', object: 'band gap', value: '2.7 eV' },
    ]);
  });
});
