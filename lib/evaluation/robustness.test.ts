import { describe, expect, it } from 'vitest';
import { type Outcome, robustnessTable, sameOutcome } from './robustness.ts';

const answered = (paper: string, valueRight: boolean | null = null): Outcome => ({ abstained: false, paper, valueRight, right: true, confidence: 0.9 });
const refused: Outcome = { abstained: true, paper: 'p1', valueRight: null, right: null, confidence: 0.1 };

describe('the robustness table', () => {
  it('counts a meaning-keeping rewrite invariant when its outcome is the original’s, and says how many answered ones it refused', () => {
    const base = new Map([
      ['a', { answerable: true, outcome: answered('p1') }],
      ['b', { answerable: true, outcome: answered('p2') }],
      ['c', { answerable: false, outcome: refused }],
    ]);
    const rows = robustnessTable(
      [
        { name: 'typo', kind: 'invariant', family: 'surface' },
        { name: 'value-moved', kind: 'change', family: 'value' },
      ],
      base,
      [
        { baseId: 'a', transform: 'typo', kind: 'invariant', family: 'surface', outcome: answered('p1') },
        { baseId: 'b', transform: 'typo', kind: 'invariant', family: 'surface', outcome: refused },
        { baseId: 'c', transform: 'typo', kind: 'invariant', family: 'surface', outcome: refused },
        { baseId: 'a', transform: 'value-moved', kind: 'change', family: 'value', outcome: refused },
        { baseId: 'b', transform: 'value-moved', kind: 'change', family: 'value', outcome: answered('p2') },
      ],
    );
    expect(rows[0]).toMatchObject({ n: 3, invariance: 2 / 3, newlyRefused: 0.5, flip: null });
    expect(rows[1]).toMatchObject({ n: 2, invariance: null, flip: 0.5, abstained: 0.5 });
  });

  it('compares outcomes by abstention, then paper and value', () => {
    expect(sameOutcome(refused, { ...refused, paper: 'p9' })).toBe(true);
    expect(sameOutcome(answered('p1'), answered('p2'))).toBe(false);
    expect(sameOutcome(answered('p1', true), answered('p1', false))).toBe(false);
  });
});
