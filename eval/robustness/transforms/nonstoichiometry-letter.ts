import { formulasOf, pick, replaceSpan } from '../text.ts';
import type { Transform } from '../types.ts';

const TYPED = ['-d', '+d', '-α', '−delta', '±δ'];

/** An oxide's “−δ” typed with another letter or sign, as people type it: La0.6Sr0.4CoO3−δ → La0.6Sr0.4CoO3-d. */
export const nonstoichiometryLetter: Transform = {
  name: 'nonstoichiometry-letter',
  kind: 'invariant',
  family: 'name',
  describe: 'an oxide’s “−δ” typed as -d, +d, -α, −delta or ±δ',
  apply(question) {
    for (const f of formulasOf(question)) {
      const delta = /O(\d*\.?\d*)\s*[−–+-]\s*δ$/.exec(f.text);
      if (!delta) continue;
      return replaceSpan(question, f.start, f.end, `${f.text.slice(0, delta.index)}O${delta[1]}${pick(TYPED, question)}`);
    }
    return null;
  },
};
