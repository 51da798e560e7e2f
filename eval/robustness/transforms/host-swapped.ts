import { formulaSegments, formulasOf, joinSegments } from '../text.ts';
import type { Transform } from '../types.ts';
import { SWAPS } from './dopant-swapped.ts';

const HOSTS: [RegExp, string][] = [
  [/\bceria\b/i, 'zirconia'],
  [/\bzirconia\b/i, 'ceria'],
  [/\btitania\b/i, 'zirconia'],
  [/\balumina\b/i, 'silica'],
];

/**
 * Another host: the first element of the question's first formula swapped for one of its kind (MgB2 → ZnB2,
 * Ce0.9Gd0.1O2 → Zr0.9Gd0.1O2), or a host oxide's name (ceria → zirconia).
 */
export const hostSwapped: Transform = {
  name: 'host-swapped',
  kind: 'change',
  family: 'name',
  describe: 'another host (the first element of a formula, or ceria ↔ zirconia)',
  apply(question) {
    for (const f of formulasOf(question)) {
      const segs = formulaSegments(f.text);
      const first = segs?.[0];
      const by = first && SWAPS[first.element];
      if (!segs || !by || segs.some((s) => s.element === by)) continue;
      segs[0] = { ...first, element: by };
      return question.split(f.text).join(joinSegments(segs));
    }
    for (const [re, by] of HOSTS) if (re.test(question)) return question.replace(re, by);
    return null;
  },
};
