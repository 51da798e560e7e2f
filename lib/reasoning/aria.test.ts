import { describe, expect, it } from 'vitest';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import { retrieve } from '../pipelines/run.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import { paragraphIdsOf, tupleIdsOf } from '../evidence/model.ts';
import { ariaReason, contextsOf, factualConsistency, numericalCompatibility } from './aria.ts';
import { handMadeGraph } from '../../scripts/test-support/graph-fixtures.ts';
import { tupleRow } from '../../scripts/test-support/retrieval-fixtures.ts';
import { analyseQuestion } from '../retrieval/question.ts';

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

const ariaOf = (r: RetrievalResult) => (r.extras?.kind === 'aria' ? r.extras.aria : undefined);

describe('aria pipeline', () => {
  it('tier 1: a direct causal path between the grounded concepts, with its evidence paragraphs', async () => {
    const index = await fixtureIndex();
    const r = await retrieve(index, 'How does the sintering temperature affect the proton conductivity?', 'aria');
    const aria = ariaOf(r);
    expect(aria?.tier).toBe(1);
    expect(aria?.paths[0].tuples.map((t) => t.id)).toEqual(['g8', 'g9']);
    expect(r.evidence.map((e) => e.id)).toEqual(expect.arrayContaining(['paragraph:fx-synth-srco3:p1', 'paragraph:fx-polymer:p1']));
    // The path is one evidence item whose provenance names both tuples and their paragraphs.
    const path = r.extras!.graphEvidence.find((e) => e.kind === 'path')!;
    expect(path.id).toBe('path:g8>g9');
    expect(tupleIdsOf(path)).toEqual(['g8', 'g9']);
    expect(paragraphIdsOf(path)).toEqual(['fx-synth-srco3:p1', 'fx-polymer:p1']);
    expect(r.abstention.abstain).toBe(false);
  });
  it('tier 2: no path, so analogues with the similarity breakdown and a stance', async () => {
    const index = await fixtureIndex();
    const r = await retrieve(index, 'How does the calcination temperature affect the grain size?', 'aria');
    expect(ariaOf(r)?.tier).toBe(2);
    const a = ariaOf(r)!.analogues[0];
    expect(a.sim).toBeCloseTo(0.4 * a.cos * (1 + 0.1 * a.contextOverlap) + 0.35 * a.F + 0.25 * a.N, 10);
    expect(['extrapolate', 'caution', 'diverge']).toContain(a.stance);
  });
  it('tier 3: nothing in the graph — abstain without a model, model-only with one', async () => {
    const index = await fixtureIndex();
    const q = 'Why do quasicrystals of holmium show phason hopping?';
    const off = await retrieve(index, q, 'aria');
    expect(ariaOf(off)).toMatchObject({ tier: 3, modelOnly: false });
    expect(off.abstention).toMatchObject({ abstain: true, reasons: ['no-evidence'] });
    const on = await retrieve(index, q, 'aria', { modelConfigured: true });
    expect(ariaOf(on)).toMatchObject({ tier: 3, modelOnly: true });
  });
});

// Hand-made graphs with chosen vectors: every cosine below is known.
describe('aria tiers on hand-made graphs', () => {
  const zincOxideGraph = () =>
    handMadeGraph(
      [
        tupleRow('z0', ['f:OZn', 'ZnO'], 'has_property', ['p:band-gap', 'band gap'], 'paper-z:p1', { value: 3.3, valueMax: 3.3, unit: 'eV' }),
        tupleRow('a1', ['n:aldopedznofilm', 'Al-doped ZnO film'], 'has_property', ['n:carrierdensity', 'carrier density'], 'paper-a:p1', {
          referenceRelation: 'measured_at',
          referenceNode: '600 K',
          sentence: 'The n-type Al-doped ZnO film showed a high carrier density at 600 K.',
        }),
        tupleRow('b1', ['n:ndopedznofilm', 'N-doped ZnO film'], 'has_property', ['n:carrierdensity', 'carrier density'], 'paper-b:p1', {
          referenceRelation: 'measured_at',
          referenceNode: '600 K',
          sentence: 'The p-type N-doped ZnO film showed a high hole density at 600 K.',
        }),
        tupleRow('c1', ['n:gadopedznofilm', 'Ga-doped ZnO film'], 'has_property', ['n:carrierdensity', 'carrier density'], 'paper-c:p1', {
          referenceRelation: 'measured_at',
          referenceNode: '300 K',
          sentence: 'The n-type Ga-doped ZnO film showed a high carrier density at 300 K.',
        }),
      ],
      { ZnO: [1, 0, 0], 'Al-doped ZnO film': [0.9, 0.4359, 0], 'N-doped ZnO film': [0.9, 0.4359, 0], 'Ga-doped ZnO film': [0.9, 0.4359, 0] },
    );
  const question = 'How does n-type doping of ZnO change the carrier density at 600 K?';

  it('tier 1: finds the direct causal path between the grounded concepts', async () => {
    const { graph, embed } = await handMadeGraph(
      [
        tupleRow('t1', ['n:dopantconcentration', 'dopant concentration'], 'increases', ['n:oxygenvacancies', 'oxygen vacancies'], 'p:p1', { causal: true }),
        tupleRow('t2', ['n:oxygenvacancies', 'oxygen vacancies'], 'increases', ['p:conductivity', 'ionic conductivity'], 'p:p2', { causal: true }),
        tupleRow('t3', ['n:grainsize', 'grain size'], 'decreases', ['p:conductivity', 'ionic conductivity'], 'p:p3', { causal: true }),
      ],
      {},
    );
    const r = await ariaReason(graph, analyseQuestion('How does the dopant concentration change the ionic conductivity?'), embed, { modelConfigured: false });
    expect(r.tier).toBe(1);
    expect(r.paths.map((p) => p.tuples.map((t) => t.id))).toEqual([['t1', 't2']]);
    expect(r.paths[0].nodes).toEqual(['n:dopantconcentration', 'n:oxygenvacancies', 'p:conductivity']);
  });

  it('tier 2: with no causal path, analogy is chosen; the p-type analogue of an n-type question is rejected by F', async () => {
    const { graph, embed } = await zincOxideGraph();
    const r = await ariaReason(graph, analyseQuestion(question), embed, { modelConfigured: false });
    expect(r.tier).toBe(2);
    expect(r.grounded.map((g) => g.key)).toContain('f:OZn');
    expect(r.analogues.map((a) => a.key)).not.toContain('n:ndopedznofilm');
    expect(r.rejected).toEqual([expect.objectContaining({ key: 'n:ndopedznofilm', reason: 'factual-conflict', F: 0.5 })]);
  });

  it('tier 2: a numeric mismatch (300 K against 600 K) is penalised by N and ranks the analogue lower', async () => {
    const { graph, embed } = await zincOxideGraph();
    const r = await ariaReason(graph, analyseQuestion(question), embed, { modelConfigured: false });
    const [first, second] = r.analogues;
    expect([first.key, second.key]).toEqual(['n:aldopedznofilm', 'n:gadopedznofilm']);
    expect(first.N).toBe(1);
    expect(second.N).toBeCloseTo(0.5, 6);
    expect(first.cos).toBeCloseTo(second.cos, 6);
    expect(first.sim - second.sim).toBeCloseTo(0.25 * 0.5, 6);
  });

  it('tier 3: abstains when no concept grounds and no candidate passes the cosine gate', async () => {
    const { graph, embed } = await zincOxideGraph();
    const r = await ariaReason(graph, analyseQuestion('Why do holmium quasicrystals show phason hopping?'), embed, { modelConfigured: false });
    expect(r).toMatchObject({ tier: 3, modelOnly: false, paths: [], analogues: [] });
  });
});
