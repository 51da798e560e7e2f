import { formulaSegments, formulasOf, joinSegments, replaceSpan } from '../text.ts';
import type { Transform } from '../types.ts';

const LETTERS = ['x', 'y', 'z'];

/**
 * Fixed fractions of one site written as a family: La0.6Sr0.4CoO3−δ → La1−xSrxCoO3−δ (a paper on the composition is
 * a paper on the family's member the question means).
 */
export const stoichiometryLetters: Transform = {
  name: 'stoichiometry-letters',
  kind: 'invariant',
  family: 'name',
  describe: 'fractional subscripts of one site written as x, y (La0.6Sr0.4 → La1−xSrx)',
  apply(question) {
    for (const f of formulasOf(question)) {
      const segs = formulaSegments(f.text);
      if (!segs) continue;
      let letter = 0;
      for (let i = 0; i + 1 < segs.length && letter < LETTERS.length; i++) {
        const a = Number(segs[i].count);
        const b = Number(segs[i + 1].count);
        if (!/^0?\.\d+$/.test(segs[i].count) || !/^0?\.\d+$/.test(segs[i + 1].count) || Math.abs(a + b - 1) > 1e-6) continue;
        const x = LETTERS[letter++];
        segs[i] = { ...segs[i], count: `1−${x}` };
        segs[i + 1] = { ...segs[i + 1], count: x };
        i++;
      }
      if (letter > 0) return replaceSpan(question, f.start, f.end, joinSegments(segs));
    }
    return null;
  },
};
