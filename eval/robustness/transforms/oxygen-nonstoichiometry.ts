import { formulaSegments, formulasOf, replaceSpan } from '../text.ts';
import type { Transform } from '../types.ts';

/** An oxide's oxygen non-stoichiometry written or left out: Ce0.9Gd0.1O2−δ ↔ Ce0.9Gd0.1O2. */
export const oxygenNonstoichiometry: Transform = {
  name: 'oxygen-nonstoichiometry',
  kind: 'invariant',
  family: 'name',
  describe: 'an oxide’s “−δ” (or “−y”) written or left out',
  apply(question) {
    for (const f of formulasOf(question)) {
      // Written with δ, or with a letter of its own ("CuO4−y", "O6+x"): left out.
      const withDelta = /O(\d*\.?\d*)\s*(?:[−–+-]\s*[δxyz]|δ)$/.exec(f.text);
      if (withDelta) return replaceSpan(question, f.start, f.end, f.text.slice(0, withDelta.index) + `O${withDelta[1]}`);
      const segs = formulaSegments(f.text);
      const last = segs?.at(-1);
      if (!segs || last?.element !== 'O' || !segs.some((s) => /\./.test(s.count))) continue;
      return replaceSpan(question, f.start, f.end, `${f.text}−δ`);
    }
    return null;
  },
};
