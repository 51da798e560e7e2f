import { pick } from '../text.ts';
import type { Transform } from '../types.ts';

const HYDRATE = /([A-Za-z0-9)\]])\s*([·•∙⋅*.])\s*(\d*|[xn])\s*H2O\b/;
const SEPARATORS = ['·', '*', '.', ' · '];

/** A hydrate or adduct in another notation: NiSO4·6H2O → NiSO4*6H2O or NiSO4.6H2O. */
export const hydrateNotation: Transform = {
  name: 'hydrate-notation',
  kind: 'invariant',
  family: 'name',
  describe: 'a hydrate or adduct written with another separator (· * .)',
  apply(question) {
    const m = HYDRATE.exec(question);
    if (!m) return null;
    const options = SEPARATORS.filter((s) => s.trim() !== m[2]);
    const sep = pick(options, question);
    return question.slice(0, m.index) + `${m[1]}${sep}${m[3]}H2O` + question.slice(m.index + m[0].length);
  },
};
