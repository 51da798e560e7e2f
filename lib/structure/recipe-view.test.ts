import { describe, expect, it } from 'vitest';
import { readRecord } from './recipe-view.ts';

// Invented records in the shapes the text-mined recipe files and the paper structure use.
const imported = {
  doi: '10.9999/invented.1',
  synthesis_type: 'solid-state',
  targets_string: ['Sr2FeMoO6'],
  reaction_string: '2 SrCO3 + 0.5 Fe2O3 + MoO3 == Sr2FeMoO6 + 2 CO2',
  target: { material_string: 'Sr2FeMoO6', material_formula: 'Sr2FeMoO6' },
  precursors: [{ material_formula: 'SrCO3' }, { material_formula: 'Fe2O3' }, { material_formula: 'MoO3' }],
  operations: [
    { token: 'ground', type: 'MixingOperation', conditions: { mixing_media: ['ethanol'], heating_temperature: [] } },
    {
      token: 'calcined',
      type: 'HeatingOperation',
      conditions: { heating_temperature: [{ values: [1200], units: 'C' }], heating_time: [{ values: [12], units: 'h' }], heating_atmosphere: ['5% H2/Ar'] },
    },
  ],
};

describe('readRecord', () => {
  it('reads an imported recipe as what was made, from what, and its steps in order with their conditions', () => {
    const r = readRecord({ kind: 'solid-state-recipe', value: imported });
    expect(r.source).toBe('doi:10.9999/invented.1');
    expect(r.recipes).toHaveLength(1);
    expect(r.recipes[0]).toMatchObject({
      method: 'solid-phase',
      from: 'imported record',
      targets: ['Sr2FeMoO6'],
      precursors: ['SrCO3', 'Fe2O3', 'MoO3'],
      reaction: '2 SrCO3 + 0.5 Fe2O3 + MoO3 → Sr2FeMoO6 + 2 CO2',
      steps: [
        { name: 'ground', conditions: ['in ethanol'] },
        { name: 'calcined', conditions: ['1200 °C', '12 h', 'in 5% H2/Ar'] },
      ],
    });
  });

  it("reads a paper's structure with the cited paragraph's recipe and claims first, the rest counted past the shown ones", () => {
    const ref = (text: string) => ({ text, key: `f:${text}`, formula: text });
    const entry = (paragraphId: string, target: string) => ({
      source: 'paragraph',
      paragraphId,
      method: 'sol-gel',
      targets: [ref(target)],
      precursors: [ref('La(NO3)3'), ref('La(NO3)3')],
      solvents: [ref('H2O')],
      additives: [],
      substrates: [],
      conditions: {
        temperature: [{ text: '800 °C', canonical: [1073.15], unit: 'K', step: 'calcination' }],
        time: [{ text: '4 h', canonical: [4], unit: 'h', step: 'calcination' }],
        atmosphere: ['air'],
      },
    });
    const value = {
      schema: 'assay.paper-record/1',
      paper: { id: 'p', doi: null, title: 'Invented' },
      paragraphs: [
        { id: 'p1', ordinal: 4 },
        { id: 'p2', ordinal: 5 },
      ],
      synthesis: [entry('p1', 'LaCoO3'), entry('p2', 'LaNiO3')],
      performance: [
        { source: 'paragraph', paragraphId: 'p3', material: 'LaNiO3', property: 'conductivity', value: [120], unit: 'S/cm', conditions: [{ text: '700 °C' }] },
      ],
    };
    const r = readRecord({ kind: 'paper-structure', value }, 'p2');
    expect(r.source).toBe('Invented');
    expect(r.recipes.map((x) => [x.from, x.targets[0]])).toEqual([
      ['this paragraph', 'LaNiO3'],
      ['paragraph 5', 'LaCoO3'],
    ]);
    expect(r.recipes[0]).toMatchObject({
      precursors: ['La(NO3)3'],
      solvents: ['H2O'],
      steps: [{ name: 'calcination', conditions: ['800 °C', '4 h'] }],
      atmosphere: ['air'],
    });
    expect(r.claims).toEqual([{ material: 'LaNiO3', property: 'conductivity', value: '120 S/cm', conditions: ['700 °C'] }]);
    expect(r.elsewhere).toBe(0);
  });
});
