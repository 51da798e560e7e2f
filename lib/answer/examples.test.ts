import { describe, expect, it } from 'vitest';
import type { ExampleTuple } from '../db/graph-views.ts';
import { exampleQuestions } from './examples.ts';

const tuple = (t: Partial<ExampleTuple>): ExampleTuple => ({
  domain: 'sofc',
  subject: 'La0.6Sr0.4CoO3',
  relation: 'has_property',
  object: 'power density',
  value: 450,
  valueMax: null,
  unit: 'mW cm^-2',
  ...t,
});

describe('exampleQuestions', () => {
  it('writes a value, a which-paper and a synthesis question from different domains and subjects', () => {
    const qs = exampleQuestions([
      tuple({}),
      tuple({ domain: 'sofc', subject: 'Gd0.1Ce0.9O2', object: 'conductivity', value: 0.01, valueMax: 0.054, unit: 'S cm^-1' }),
      tuple({ domain: 'superconductor', subject: 'MgB2', object: 'superconducting transition temperature', value: 39, unit: 'K' }),
      tuple({ domain: 'photocatalysis', subject: 'BCs', relation: 'synthesized_by', object: 'hydrothermal', value: null, unit: null }),
      tuple({ domain: 'photocatalysis', subject: 'TiO2', relation: 'synthesized_by', object: 'sol-gel', value: null, unit: null }),
    ]);
    expect(qs).toEqual([
      { question: 'What is the power density of La0.6Sr0.4CoO3?', kind: 'value', domain: 'sofc' },
      { question: 'Which paper reports a superconducting transition temperature of 39 K for MgB2?', kind: 'which paper', domain: 'superconductor' },
      // "BCs" is an abbreviation, not a product a chemist would ask about.
      { question: 'How is TiO2 synthesized?', kind: 'synthesis', domain: 'photocatalysis' },
      { question: 'What is the conductivity of Gd0.1Ce0.9O2?', kind: 'value', domain: 'sofc' },
    ]);
  });
  it('skips subjects that name no material and values without a unit, and returns fewer when the corpus has fewer', () => {
    expect(exampleQuestions([tuple({ subject: 'the cell' }), tuple({ subject: 'CeO2', unit: null })])).toEqual([]);
  });
});
