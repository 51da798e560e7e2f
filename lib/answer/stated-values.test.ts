import { describe, expect, it } from 'vitest';
import { paragraphEvidence as paragraph } from '../../scripts/test-support/retrieval-fixtures.ts';
import { statedValues } from './stated-values.ts';

describe('statedValues', () => {
  it('takes the value a property is stated to have, not a bound of a range the property opens', () => {
    const rows = statedValues(
      [
        // Invented in the way PDF extraction leaves such sentences.
        paragraph('a', 'For example, MgB 2 shows ρ ∝ T 2 behav- ior in T c < T 240 K, and the oxide shows a curvature.'),
        paragraph(
          'b',
          'A layered compound MgB 2 , which shows super- conductivity at T c = 39 K, also exhibits T 2 dependence in the resistivity up to 240 K.',
        ),
      ],
      'critical-temperature',
      'temperature',
    );
    expect(rows.map((r) => `${r.material} ${r.value}`)).toEqual(['MgB2 39 K']);
  });
});
