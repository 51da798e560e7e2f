import { describe, expect, it } from 'vitest';
import { type ComparableTuple, conflictsOf, tupleProblem, validateTuples } from './validate-tuples.ts';
import type { TupleDraft } from './tuples.ts';

const tc = (subject: string, value: number, unit = 'K', referenceNode: string | null = null, key = `f:${subject}`): TupleDraft => ({
  subject: { key, surface: subject, kind: 'material', formula: subject },
  relation: 'has_property',
  object: { key: 'p:critical-temperature', surface: 'Tc', kind: 'property', formula: null },
  referenceRelation: referenceNode ? 'measured_at' : null,
  referenceNode,
  value,
  valueMax: null,
  unit,
  paragraphId: 'p1',
  recordId: null,
  sentence: null,
  start: null,
  end: null,
});
const stored = (value: number, referenceNode: string | null = null, paperId = 'other'): ComparableTuple => ({
  id: `t${value}`,
  paperId,
  subjectKey: 'f:MgB2',
  objectKey: 'p:critical-temperature',
  value,
  valueMax: null,
  unit: 'K',
  referenceNode,
});

describe('validating tuples of papers found online', () => {
  it('rejects a value in another dimension’s unit, beyond the property’s range, or below absolute zero', () => {
    expect(tupleProblem(tc('MgB2', 39))).toBeNull();
    expect(tupleProblem(tc('MgB2', 39, 'mA/cm^2'))).toMatchObject({ rule: 'unit' });
    expect(tupleProblem(tc('MgB2', 390))).toMatchObject({ rule: 'impossible', message: expect.stringMatching(/beyond what one can be \(300\)/) });
    expect(tupleProblem({ ...tc('MgB2', 39), referenceNode: '−300 °C' })).toMatchObject({
      rule: 'impossible',
      message: expect.stringMatching(/below absolute zero/),
    });
  });

  it('rejects a formula with a symbol that is no element, and a material doped with itself', () => {
    expect(tupleProblem(tc('Nb3Gc films', 18))).toMatchObject({ rule: 'impossible', message: '“Nb3Gc” names no compound: Gc is not an element' });
    expect(tupleProblem(tc('La0.6Sr0.4CoO3 films', 18))).toBeNull();
    const self = {
      ...tc('MgB2', 1),
      relation: 'doped_with',
      object: { key: 'f:MgB2', surface: 'MgB2', kind: 'material' as const, formula: 'MgB2' },
      value: null,
      unit: null,
    };
    expect(tupleProblem(self)).toMatchObject({ rule: 'impossible', message: 'MgB2 cannot be doped with itself' });
  });

  it('flags another paper’s clearly different value under the same conditions only', () => {
    const t = tc('MgB2', 39, 'K', null, 'f:MgB2');
    expect(conflictsOf(t, 'mine', [stored(20)]).map((c) => c.id)).toEqual(['t20']);
    // Close values agree; other conditions, or the paper itself, are no conflict.
    expect(conflictsOf(t, 'mine', [stored(36)])).toEqual([]);
    expect(conflictsOf({ ...t, referenceNode: '5 GPa' }, 'mine', [stored(20, '0.1 MPa')])).toEqual([]);
    expect(conflictsOf({ ...t, referenceNode: '300 K' }, 'mine', [stored(20, '302 K')]).length).toBe(1);
    expect(conflictsOf(t, 'mine', [stored(20, null, 'mine')])).toEqual([]);
    const v = validateTuples([t, tc('MgB2', 39, 'V')], 'mine', [stored(20)]);
    expect([v.accepted.length, v.rejected.length, v.conflicts.length]).toEqual([1, 1, 1]);
  });
});
