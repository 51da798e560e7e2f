import { describe, expect, it } from 'vitest';
import type { ExampleTuple } from '../db/graph-views.ts';
import { acceptsExample, checkedExamples, exampleCandidates } from './examples.ts';
import type { Answer, AnswerSentence } from './types.ts';

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
const sources = {
  tuples: [
    tuple({}),
    tuple({ subject: 'Nd0.5Sr0.5CoO3', value: 1050 }),
    tuple({ subject: 'the cell' }),
    tuple({ domain: 'superconductor', subject: 'MgB2', object: 'superconducting transition temperature', value: 39, unit: 'K' }),
    tuple({ subject: 'CeO2', unit: null }),
  ],
  recipeTargets: [{ name: 'LiMn2O4', method: 'sol-gel', recipes: 140 }],
  severalPapers: [{ subject: 'La0.6Sr0.4CoO3', papers: 3 }],
};
const sentence = (text: string, flags: string[] = []): AnswerSentence => ({ text, citations: ['paragraph:x'], verdict: 'supported', check: null, flags });
const answer = (shape: Answer['shape'], sentences: AnswerSentence[], abstain = false) =>
  ({ shape, sentences, abstention: { abstain, reasons: [], explanation: '', corpusHolds: null } }) as Pick<Answer, 'abstention' | 'shape' | 'sentences'>;

describe('example questions', () => {
  it('are written for every kind from what the corpus states, about materials a chemist would name', () => {
    const qs = exampleCandidates(sources);
    expect(qs.map((q) => `${q.kind}: ${q.question}`)).toEqual([
      'value: What is the power density of La0.6Sr0.4CoO3?',
      'value: What is the power density of Nd0.5Sr0.5CoO3?',
      'value: What is the superconducting transition temperature of MgB2?',
      'synthesis: How is LiMn2O4 made by the sol-gel method?',
      'comparison: Which has the higher power density, La0.6Sr0.4CoO3 or Nd0.5Sr0.5CoO3?',
      'which papers: Which papers study La0.6Sr0.4CoO3?',
    ]);
  });

  it('are kept only when answered well: the right shape, nothing refused, every claim supported', () => {
    expect(acceptsExample('value', answer('value', [sentence('450 mW cm−2')]))).toBe(true);
    expect(acceptsExample('value', answer('descriptive', [sentence('450 mW cm−2')]))).toBe(false);
    expect(acceptsExample('value', answer('value', [{ ...sentence('450 mW cm−2'), verdict: 'partial' }]))).toBe(false);
    expect(acceptsExample('value', answer('value', [sentence('x')], true))).toBe(false);
    // A comparison that cannot name a winner shows the product at less than its best.
    expect(acceptsExample('comparison', answer('comparison', [sentence('A has the higher power density: 1 W, against 0.5 W for B.')]))).toBe(true);
    expect(
      acceptsExample('comparison', answer('comparison', [sentence('The evidence does not let A and B be compared.', ['frame']), sentence('A: 1 W.')])),
    ).toBe(false);
    expect(acceptsExample('which papers', answer('which-paper', [sentence('2 papers …', ['frame']), sentence('P1'), sentence('P2')]))).toBe(true);
    expect(acceptsExample('which papers', answer('which-paper', [sentence('1 paper …', ['frame']), sentence('P1')]))).toBe(false);
  });

  it('keep the first candidate of each kind that is answered well, and ask no more of that kind', async () => {
    const asked: string[] = [];
    const kept = await checkedExamples(exampleCandidates(sources), async (q) => {
      asked.push(q);
      if (q.startsWith('What is the power density of La')) return answer('descriptive', [sentence('…')]) as Answer;
      if (q.startsWith('What is')) return answer('value', [sentence('1050 mW cm−2')]) as Answer;
      if (q.startsWith('How is')) return answer('synthesis', [sentence('Usual precursors …')]) as Answer;
      if (q.startsWith('Which has')) return answer('comparison', [sentence('Nd0.5Sr0.5CoO3 has the higher power density: …')]) as Answer;
      return answer('abstain', [sentence('…')], true) as Answer;
    });
    expect(kept.map((k) => k.question)).toEqual([
      'What is the power density of Nd0.5Sr0.5CoO3?',
      'How is LiMn2O4 made by the sol-gel method?',
      'Which has the higher power density, La0.6Sr0.4CoO3 or Nd0.5Sr0.5CoO3?',
    ]);
    expect(asked).not.toContain('What is the superconducting transition temperature of MgB2?');
  });
});
