import { pick } from '../text.ts';
import type { Transform } from '../types.ts';

// A separator mark, or (after a formula's last count) a space or hyphen before a number of waters: "NiSO4 6H2O".
const HYDRATE = /([A-Za-z0-9)\]])\s*([·•∙⋅*.])\s*(\d*|[xn])\s*H2O\b|([0-9)\]])( |-)(\d+(?:\.\d+)?|[xn])\s?H2O\b/;
const SEPARATORS = ['·', '*', '.', ' · ', ' ', '-', '•'];

/** A hydrate or adduct in another notation: NiSO4·6H2O → NiSO4*6H2O, NiSO4.6H2O, NiSO4 6H2O, NiSO4-6H2O or NiSO4•6H2O. */
export const hydrateNotation: Transform = {
  name: 'hydrate-notation',
  kind: 'invariant',
  family: 'name',
  describe: 'a hydrate or adduct written with another separator (· * . space - •)',
  apply(question) {
    const m = HYDRATE.exec(question);
    if (!m) return null;
    const [end, mark, waters] = m[1] ? [m[1], m[2], m[3]] : [m[4], m[5], m[6]];
    const options = SEPARATORS.filter((s) => s !== mark && s.trim() !== mark);
    const sep = pick(options, question);
    return `${question.slice(0, m.index)}${end}${sep}${waters}H2O${question.slice(m.index + m[0].length)}`;
  },
};
