import { formulaSegments, formulasOf, joinSegments, pick, replaceSpan } from '../text.ts';
import type { Transform } from '../types.ts';

/** Names of host oxides chemists use for the formula. */
const HOST_NAMES: Record<string, string> = { CeO2: 'ceria', ZrO2: 'zirconia', TiO2: 'titania', Al2O3: 'alumina', ZnO: 'zinc oxide', SnO2: 'tin oxide' };

/**
 * A doped composition written as a dopant phrase: Ce0.9Gd0.1O2−δ → "Gd-doped ceria", La0.8Sr0.2MnO3 → "Sr-doped
 * LaMnO3" (one substituted site only; the phrase says less than the formula, and the paper on the formula answers it).
 */
export const dopantPhrase: Transform = {
  name: 'dopant-phrase',
  kind: 'invariant',
  family: 'name',
  describe: 'a doped formula written as “X-doped host” (Ce0.9Gd0.1O2−δ → Gd-doped ceria)',
  apply(question) {
    for (const f of formulasOf(question)) {
      const segs = formulaSegments(f.text);
      if (!segs) continue;
      const fractional = segs.map((s, i) => ({ s, i })).filter(({ s }) => /^0?\.\d+$/.test(s.count));
      if (fractional.length !== 2 || fractional[1].i !== fractional[0].i + 1) continue;
      const [host, dopant] = Number(fractional[0].s.count) >= Number(fractional[1].s.count) ? fractional : [fractional[1], fractional[0]];
      if (Math.abs(Number(host.s.count) + Number(dopant.s.count) - 1) > 1e-6) continue;
      const hostSegs = segs
        .filter((_, i) => i !== dopant.i)
        .map((s, i, all) => (s === host.s ? { ...s, count: '' } : i === all.length - 1 ? { ...s, count: s.count.replace(/[−–-]?δ$/, '') } : s));
      const formula = joinSegments(hostSegs);
      const name = HOST_NAMES[formula] && pick([true, false], question) ? HOST_NAMES[formula] : formula;
      return replaceSpan(question, f.start, f.end, `${dopant.s.element}-doped ${name}`);
    }
    return null;
  },
};
