import { ELEMENT_NAMES, formulaSegments, formulasOf, joinSegments, replaceSpan } from '../text.ts';
import type { Transform } from '../types.ts';

/** Another element of the same kind, for a dopant or a host. */
export const SWAPS: Record<string, string> = {
  Gd: 'Sm',
  Sm: 'Gd',
  Y: 'Sc',
  Sc: 'Y',
  Sr: 'Ca',
  Ca: 'Sr',
  Ba: 'Sr',
  La: 'Pr',
  Pr: 'Nd',
  Nd: 'Pr',
  Co: 'Ni',
  Ni: 'Co',
  Fe: 'Mn',
  Mn: 'Fe',
  Cu: 'Zn',
  Zn: 'Cu',
  Mg: 'Zn',
  Nb: 'Ta',
  Ta: 'Nb',
  Ce: 'Zr',
  Zr: 'Ti',
  Ti: 'Zr',
  Li: 'Na',
  Na: 'K',
  K: 'Rb',
  Al: 'Ga',
  Ga: 'Al',
  Sn: 'Pb',
  Bi: 'Sb',
  Mo: 'W',
  W: 'Mo',
  Pt: 'Pd',
  Pd: 'Pt',
  Ag: 'Au',
  Au: 'Ag',
  Cr: 'V',
  V: 'Cr',
  In: 'Ga',
  Eu: 'Tb',
  Tb: 'Eu',
  Er: 'Yb',
  Yb: 'Er',
  Dy: 'Ho',
  Ho: 'Dy',
  Hf: 'Zr',
  B: 'Al',
  Se: 'Te',
  Te: 'Se',
  S: 'Se',
};
const NAME_SWAPS = Object.fromEntries(
  Object.entries(SWAPS).flatMap(([a, b]) => (ELEMENT_NAMES[a] && ELEMENT_NAMES[b] ? [[ELEMENT_NAMES[a], ELEMENT_NAMES[b]]] : [])),
);

/** Another dopant: Ce0.9Gd0.1O2 → Ce0.9Sm0.1O2, "Gd-doped ceria" → "Sm-doped ceria" (the minor element of a site swapped). */
export const dopantSwapped: Transform = {
  name: 'dopant-swapped',
  kind: 'change',
  family: 'name',
  describe: 'another dopant (the minor element of a doped formula or an “X-doped” phrase)',
  apply(question) {
    const phrase = /\b([A-Z][a-z]?|[a-z]+)(?=[-\s](?:doped|substituted)\b)/.exec(question);
    if (phrase) {
      const by = SWAPS[phrase[1]] ?? NAME_SWAPS[phrase[1].toLowerCase()];
      if (by) return replaceSpan(question, phrase.index, phrase.index + phrase[1].length, by);
    }
    for (const f of formulasOf(question)) {
      const segs = formulaSegments(f.text);
      if (!segs) continue;
      const minor = segs
        .map((s, i) => ({ s, i }))
        .filter(({ s }) => /^0?\.\d+$/.test(s.count) && Number(s.count) <= 0.5 && SWAPS[s.element] && !segs.some((o) => o.element === SWAPS[s.element]))
        .sort((a, b) => Number(a.s.count) - Number(b.s.count))[0];
      if (!minor) continue;
      segs[minor.i] = { ...minor.s, element: SWAPS[minor.s.element] };
      return replaceSpan(question, f.start, f.end, joinSegments(segs));
    }
    return null;
  },
};
