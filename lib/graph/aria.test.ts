import { describe, expect, it } from 'vitest';
import { fixtureIndex } from '../testing/retrieval-fixtures.ts';
import { retrieve } from '../retrieval/pipelines.ts';
import { contextsOf, factualConsistency, numericalCompatibility } from './aria.ts';

describe('ARIA similarity parts', () => {
  it('finds the eight contexts by their words', () => {
    expect([...contextsOf('Y doping raised the ionic conductivity after sintering')].sort()).toEqual(['doping', 'electrical', 'synthesis']);
  });
  it('F penalises opposite concepts fully and conditional ones by half, only in shared contexts', () => {
    expect(factualConsistency('an n-type oxide', 'a p-type oxide', new Set(['electrical']))).toBe(0.5);
    expect(factualConsistency('an n-type oxide', 'a p-type oxide', new Set(['optical']))).toBe(1);
    expect(factualConsistency('at high temperature', 'at low temperature', new Set(['thermal']))).toBe(0.75);
    expect(factualConsistency('crystalline n-type film', 'amorphous p-type film', new Set(['structure', 'electrical']))).toBe(0);
  });
  it('N multiplies 1 − min(0.5, relative difference) over shared quantities', () => {
    expect(numericalCompatibility([{ dimension: 'temperature', value: 1000 }], [{ dimension: 'temperature', value: 800 }])).toBeCloseTo(0.8, 6);
    expect(numericalCompatibility([{ dimension: 'temperature', value: 1000 }], [{ dimension: 'temperature', value: 10 }])).toBe(0.5);
    expect(numericalCompatibility([{ dimension: 'temperature', value: 1000 }], [{ dimension: 'pressure', value: 1 }])).toBe(1);
  });
});

describe('aria pipeline', () => {
  it('tier 1: a direct causal path between the grounded concepts, with its evidence paragraphs', async () => {
    const index = await fixtureIndex();
    const r = await retrieve(index, 'How does the sintering temperature affect the proton conductivity?', 'aria');
    expect(r.aria?.tier).toBe(1);
    expect(r.aria?.paths[0].tuples.map((t) => t.id)).toEqual(['g8', 'g9']);
    expect(r.evidence.map((e) => e.id)).toEqual(expect.arrayContaining(['fx-synth-srco3:p1', 'fx-polymer:p1']));
    expect(r.abstention.abstain).toBe(false);
  });
  it('tier 2: no path, so analogues with the similarity breakdown and a stance', async () => {
    const index = await fixtureIndex();
    const r = await retrieve(index, 'How does the calcination temperature affect the grain size?', 'aria');
    expect(r.aria?.tier).toBe(2);
    const a = r.aria!.analogues[0];
    expect(a.sim).toBeCloseTo(0.4 * a.cos * (1 + 0.1 * a.contextOverlap) + 0.35 * a.F + 0.25 * a.N, 10);
    expect(['extrapolate', 'caution', 'diverge']).toContain(a.stance);
  });
  it('tier 3: nothing in the graph — abstain without a model, model-only with one', async () => {
    const index = await fixtureIndex();
    const q = 'Why do quasicrystals of holmium show phason hopping?';
    const off = await retrieve(index, q, 'aria');
    expect(off.aria).toMatchObject({ tier: 3, modelOnly: false });
    expect(off.abstention).toMatchObject({ abstain: true, reasons: ['no-evidence'] });
    const on = await retrieve(index, q, 'aria', { modelConfigured: true });
    expect(on.aria).toMatchObject({ tier: 3, modelOnly: true });
  });
});
