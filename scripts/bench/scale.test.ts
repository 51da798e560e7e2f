import { describe, expect, it } from 'vitest';
import { copyValue, perturbNumbers } from './scale.ts';

describe('the scaled corpus of bench scale', () => {
  it('scales free-standing numbers with their decimals, and leaves formulas, identifiers and attached units alone', () => {
    expect(perturbNumbers('annealed at 800 °C for 2.50 h in LiMn2O4 and 10.1002/advs.1', 1.1)).toBe(
      'annealed at 880 °C for 2.75 h in LiMn2O4 and 10.1002/advs.1',
    );
    expect(perturbNumbers('x-ray 5nm TiO2 (300)', 2)).toBe('x-ray 5nm TiO2 (600)');
    expect(perturbNumbers('800 °C', 1)).toBe('800 °C');
  });

  it('gives every copy new identifiers and perturbed values, and keeps the first copy as it is', () => {
    const paper = { id: 'mulms-sofc-01', doi: '10.1/x', source_id: 's1', year: 2017, paragraphs: [{ id: 'p1', text: 'sintered at 1400 °C' }] };
    expect(copyValue(paper, 0, 1)).toEqual(paper);
    expect(copyValue(paper, 2, 1.5)).toEqual({
      id: 'mulms-sofc-01~s2',
      doi: '10.1/x.s2',
      source_id: 's1~s2',
      year: 2017,
      paragraphs: [{ id: 'p1~s2', text: 'sintered at 2100 °C' }],
    });
    expect(copyValue({ paper_id: 'solarchem-0001', percent: 2, doi: null }, 1, 1.5)).toEqual({ paper_id: 'solarchem-0001~s1', percent: 3, doi: null });
  });
});
