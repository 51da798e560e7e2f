import { describe, expect, it } from 'vitest';
import { settleEntity } from './graph.ts';

describe('settleEntity', () => {
  const sightings = [
    { kind: 'concept', formula: null },
    { kind: 'material', formula: 'LaSrCoO3' },
    { kind: 'material', formula: null },
    { kind: 'material', formula: 'La0.6Sr0.4CoO3' },
    { kind: 'method', formula: null },
    { kind: 'unknown-kind', formula: 'X' },
  ];

  it('settles on the same kind and formula whatever order the sightings come in', () => {
    const settle = (xs: typeof sightings) => xs.reduce((a, b) => settleEntity(a, b));
    const expected = { kind: 'material', formula: 'La0.6Sr0.4CoO3' };
    expect(settle(sightings)).toEqual(expected);
    expect(settle([...sightings].reverse())).toEqual(expected);
    // Every rotation, and pairs settled first in another grouping.
    for (let i = 0; i < sightings.length; i++) expect(settle([...sightings.slice(i), ...sightings.slice(0, i)])).toEqual(expected);
    expect(settleEntity(settleEntity(sightings[0], sightings[3]), settleEntity(sightings[5], sightings[1]))).toEqual(expected);
  });

  it('prefers a specific kind to a bare concept, and a formula to none', () => {
    expect(settleEntity({ kind: 'concept', formula: 'Co' }, { kind: 'material', formula: null })).toEqual({ kind: 'material', formula: null });
    expect(settleEntity({ kind: 'material', formula: null }, { kind: 'material', formula: 'CoO' })).toEqual({ kind: 'material', formula: 'CoO' });
    expect(settleEntity({ kind: 'zeta', formula: null }, { kind: 'alpha', formula: null })).toEqual({ kind: 'alpha', formula: null });
  });
});
