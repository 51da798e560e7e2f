import { describe, expect, it } from 'vitest';
import { analyseQuestion } from '../retrieval/question.ts';
import { retrieve } from '../pipelines/run.ts';
import { paragraphIdsOf } from '../evidence/model.ts';
import { handMadeGraph } from '../../scripts/test-support/graph-fixtures.ts';
import { fixtureIndex, tupleRow } from '../../scripts/test-support/retrieval-fixtures.ts';
import { designReason, designTargets, detectDesignMode } from './design.ts';

// An invented superconductor graph: MgB2 made two ways in two papers, Nb with a low Tc.
const superconductors = (extra: ReturnType<typeof tupleRow>[] = []) =>
  handMadeGraph(
    [
      ...extra,
      tupleRow('s1', ['f:B2Mg', 'MgB2'], 'has_property', ['p:critical-temperature', 'critical temperature'], 'paper-m:p1', {
        value: 39,
        valueMax: 39,
        unit: 'K',
      }),
      tupleRow('s2', ['f:B2Mg', 'MgB2'], 'synthesized_by', ['method:solid-phase', 'solid-phase'], 'paper-m:p2'),
      tupleRow('s3', ['f:B2Mg', 'MgB2'], 'synthesized_from', ['f:Mg', 'Mg'], 'paper-m:p2'),
      tupleRow('s4', ['f:B2Mg', 'MgB2'], 'processed_at', ['v:temperature:1173 K', '900 °C'], 'paper-m:p2', {
        value: 1173.15,
        valueMax: 1173.15,
        unit: 'K',
        referenceRelation: 'during',
        referenceNode: 'sintering',
      }),
      tupleRow('s5', ['f:B2Mg', 'MgB2'], 'has_property', ['p:critical-temperature', 'critical temperature'], 'paper-n:p1', {
        value: 33,
        valueMax: 33,
        unit: 'K',
      }),
      tupleRow('s6', ['f:B2Mg', 'MgB2'], 'synthesized_by', ['method:vapor-phase', 'vapor-phase'], 'paper-n:p1'),
      tupleRow('s7', ['f:B2Mg', 'MgB2'], 'processed_at', ['v:temperature:773 K', '500 °C'], 'paper-n:p1', {
        value: 773.15,
        valueMax: 773.15,
        unit: 'K',
        referenceRelation: 'during',
        referenceNode: 'deposition',
      }),
      tupleRow('s8', ['f:H2O', 'water'], 'used_as', ['n:solvent', 'solvent'], 'paper-m:p2', { referenceRelation: 'in_synthesis_of', referenceNode: 'MgB2' }),
      tupleRow('n1', ['f:Nb', 'Nb'], 'has_property', ['p:critical-temperature', 'critical temperature'], 'paper-nb:p1', {
        value: 9.2,
        valueMax: 9.2,
        unit: 'K',
      }),
      tupleRow('n2', ['f:Nb', 'Nb'], 'synthesized_by', ['method:vapor-phase', 'vapor-phase'], 'paper-nb:p1'),
    ],
    {},
  );

describe('design question modes', () => {
  it('detects inverse design and forward prediction from the wording', () => {
    const mode = (q: string) => detectDesignMode(analyseQuestion(q));
    expect(mode('How can I make a superconductor with a critical temperature above 30 K?')).toBe('inverse');
    expect(mode('Which synthesis conditions give a power density above 1 W cm-2?')).toBe('inverse');
    expect(mode('What critical temperature would MgB2 have if we sinter it at 1173 K?')).toBe('forward');
    expect(mode('Predict the band gap of TiO2 calcined at 500 °C.')).toBe('forward');
    expect(mode('How does the sintering temperature affect the conductivity?')).toBeNull();
    expect(mode('Which paper reports the Tc of MgB2?')).toBeNull();
  });

  it('reads the target and its comparator (above / below / about) in canonical units', () => {
    const target = (q: string) => designTargets(analyseQuestion(q), 'inverse')[0];
    expect(target('How can I make a superconductor with a critical temperature above 30 K?')).toMatchObject({
      property: 'critical-temperature',
      comparator: '>=',
      value: 30,
      unit: 'K',
    });
    expect(target('How can we obtain a cathode with an area-specific resistance below 0.1 Ω cm2?')).toMatchObject({ comparator: '<=' });
    expect(target('How could one prepare a film with a band gap of 3.2 eV?')).toMatchObject({ property: 'band-gap', comparator: '≈', value: 3.2 });
    // A forward question's quantities are conditions, not targets.
    expect(designTargets(analyseQuestion('What critical temperature would MgB2 have if we sinter it at 1173 K?'), 'forward')[0]).toMatchObject({
      value: null,
      comparator: null,
    });
  });

  it('inverse, tier 1: a material meeting the target with its route (same paper first, solvents included)', async () => {
    const { graph, embed } = await superconductors();
    const r = await designReason(graph, analyseQuestion('How can I make a superconductor with a critical temperature above 30 K?'), 'inverse', embed, {
      modelConfigured: false,
    });
    expect(r.tier).toBe(1);
    const [best, ...rest] = r.suggestions;
    expect(best).toMatchObject({ material: { key: 'f:B2Mg' }, meets: true, achieved: { value: 39, tupleId: 's1' }, routeFromSamePaper: true });
    expect(best.route.slice(0, 4).map((s) => s.paperId)).toEqual(['paper-m', 'paper-m', 'paper-m', 'paper-m']);
    expect(best.route.map((s) => `${s.kind}:${s.label}`)).toEqual(
      expect.arrayContaining(['method:solid-phase', 'precursor:Mg', 'condition:900 °C', 'solvent:water', 'method:vapor-phase']),
    );
    expect(best.route.find((s) => s.kind === 'condition' && s.step === 'sintering')).toMatchObject({ value: 1173.15, unit: 'K' });
    // Nb misses the target (9.2 K < 30 K): kept below, marked as not meeting it, with its N.
    expect(rest).toEqual([expect.objectContaining({ material: { key: 'f:Nb', label: 'Nb' }, meets: false, N: 0.5 })]);
  });

  it('inverse, tier 2: nothing reaches the target, so the nearest values are offered by N; tier 3 when the property is unknown', async () => {
    const { graph, embed } = await superconductors();
    const near = await designReason(graph, analyseQuestion('How can I make a superconductor with a critical temperature above 50 K?'), 'inverse', embed, {
      modelConfigured: false,
    });
    expect(near.tier).toBe(2);
    expect(near.suggestions[0]).toMatchObject({ material: { key: 'f:B2Mg' }, meets: false });
    expect(near.suggestions[0].N).toBeCloseTo(1 - 11 / 50, 6);
    const none = await designReason(graph, analyseQuestion('How can I make a film with a band gap above 3 eV?'), 'inverse', embed, { modelConfigured: false });
    expect(none).toMatchObject({ tier: 3, suggestions: [], modelOnly: false });
  });

  it('inverse: a material without a known route borrows the route of its closest composition analogue', async () => {
    const { graph, embed } = await superconductors([
      tupleRow('c1', ['f:B1.9C0.1Mg', 'MgB1.9C0.1'], 'has_property', ['p:critical-temperature', 'critical temperature'], 'paper-c:p1', {
        value: 36,
        valueMax: 36,
        unit: 'K',
      }),
    ]);
    const r = await designReason(graph, analyseQuestion('How can I make a superconductor with a critical temperature above 35 K?'), 'inverse', embed, {
      modelConfigured: false,
    });
    const doped = r.suggestions.find((s) => s.material.key === 'f:B1.9C0.1Mg')!;
    expect(doped).toMatchObject({ meets: true, route: [], analogueRoute: { key: 'f:B2Mg', label: 'MgB2' } });
    expect(doped.analogueRoute!.cos).toBeGreaterThan(0.95);
    expect(doped.analogueRoute!.route.map((x) => x.kind)).toContain('method');
    // MgB2 has its own route and ranks first; Nb (cos 0 with either) lends nothing.
    expect(r.suggestions[0]).toMatchObject({ material: { key: 'f:B2Mg' }, analogueRoute: null });
  });

  it('forward, tier 1: the material’s values ranked by how well their paper’s conditions match the question', async () => {
    const { graph, embed } = await superconductors();
    const r = await designReason(
      graph,
      analyseQuestion('What critical temperature would MgB2 have if we sinter it at 1173 K by solid-state reaction?'),
      'forward',
      embed,
      { modelConfigured: false },
    );
    expect(r.tier).toBe(1);
    expect(r.conditions.method).toBe('solid-phase');
    const [p] = r.predictions;
    expect(p).toMatchObject({ property: 'critical-temperature', basis: 'material' });
    expect(p.cases.map((c) => c.tupleId)).toEqual(['s1', 's5']);
    expect(p.cases[0].conditionMatch).toBeCloseTo(1, 3);
    expect(p.cases[1].conditionMatch).toBeLessThan(0.5);
    expect(p.estimate).toEqual({ low: 39, high: 39, median: 39, unit: 'K' });
  });

  it('forward, tier 2: an unknown material is predicted from a composition analogue, with its Sim breakdown and stance', async () => {
    const { graph, embed } = await superconductors();
    const r = await designReason(graph, analyseQuestion('What critical temperature would MgB1.9C0.1 have if we sinter it at 1173 K?'), 'forward', embed, {
      modelConfigured: false,
    });
    expect(r.tier).toBe(2);
    const [p] = r.predictions;
    expect(p.basis).toBe('analogue');
    expect(p.analogue).toMatchObject({ key: 'f:B2Mg', stance: 'extrapolate' });
    expect(p.analogue!.cos).toBeGreaterThan(0.95);
    expect(r.predictions.map((x) => x.analogue?.key)).not.toContain('f:Nb');
  });

  it('runs in the aria pipeline: auto-detected, suggestions as evidence; forced explain mode skips it', async () => {
    const index = await fixtureIndex();
    const q = 'How can we obtain a cathode with a power density above 400 mW cm-2?';
    const r = await retrieve(index, q, 'aria');
    const design = r.extras?.kind === 'design' ? r.extras.design : undefined;
    expect(design).toMatchObject({ mode: 'inverse', tier: 2 });
    expect(design!.suggestions[0]).toMatchObject({ material: { label: 'La0.6Sr0.4CoO3' }, meets: true, route: [] });
    expect(r.evidence.map((e) => e.id)).toEqual(['paragraph:fx-sofc-600:p2']);
    // Every tuple the suggestion names resolves to an evidence item with its paragraph.
    const achieved = r.extras!.graphEvidence.find((e) => e.id === `tuple:${design!.suggestions[0].achieved.tupleId}`);
    expect(achieved && paragraphIdsOf(achieved)).toEqual(['fx-sofc-600:p2']);
    expect(r.abstention.abstain).toBe(false);
    const explain = await retrieve(index, q, 'aria', { mode: 'explain' });
    expect(explain.extras?.kind).toBe('aria');
  });
});
