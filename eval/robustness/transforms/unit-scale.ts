import { lookupUnit } from '../../../lib/structure/quantities.ts';
import { NUMBER, quantitiesOf, replaceSpan, rewriteQuantity, significantDigits, writeNumber, writtenUnit } from '../text.ts';
import type { Transform } from '../types.ts';
import { sameQuantities } from './checks.ts';

const PREFIXES: [string, number][] = [
  ['', 1],
  ['m', 1e-3],
  ['k', 1e3],
  ['µ', 1e-6],
  ['n', 1e-9],
  ['M', 1e6],
  ['G', 1e9],
];
/** Scales that are not SI prefixes of each other. */
const OTHER_SCALES: Record<string, [string, number][]> = { nm: [['Å', 10]], Å: [['nm', 0.1]], GPa: [['kbar', 10]], kbar: [['GPa', 0.1]], h: [['min', 60]] };

/** A value in another scale of its unit: 560 mW cm−2 → 0.56 W cm−2, 0.1 S/cm → 100 mS/cm, 3.3 nm → 33 Å. */
export const unitScale: Transform = {
  name: 'unit-scale',
  kind: 'invariant',
  family: 'value',
  describe: 'a value in another scale of its unit (mW cm⁻² ↔ W/cm², S/cm ↔ mS/cm, nm ↔ Å)',
  apply(question) {
    for (const q of quantitiesOf(question)) {
      if (q.dimension === 'temperature' || q.dimension === 'fraction') continue;
      const unit = writtenUnit(q);
      if (!unit) continue;
      for (const [alt, factor] of alternatives(unit, q.dimension)) {
        if (!q.values.every((v) => Math.abs(v * factor) >= 0.01 && Math.abs(v * factor) < 1e5)) continue;
        const digits = Math.max(2, significantDigits(q.text.match(NUMBER)?.[0] ?? ''));
        const text = rewriteQuantity(q, (_w, v) => writeNumber(v * factor, digits), alt);
        const out = replaceSpan(question, q.start, q.end, text);
        if (sameQuantities(question, out)) return out;
      }
    }
    return null;
  },
};

function alternatives(unit: string, dimension: string): [string, number][] {
  const out: [string, number][] = [...(OTHER_SCALES[unit] ?? [])];
  for (const [p1, f1] of PREFIXES) {
    if (p1 && !unit.startsWith(p1)) continue;
    const stem = unit.slice(p1.length);
    if (!stem || (p1 === '' && lookupUnit(unit)?.dimension !== dimension)) continue;
    for (const [p2, f2] of PREFIXES) {
      if (p2 === p1) continue;
      const alt = p2 + stem;
      if (lookupUnit(alt)?.dimension === dimension) out.push([alt, f1 / f2]);
    }
    if (p1) break;
  }
  // The scale that keeps numbers readable first: 0.56 W rather than 560000 µW.
  return out.sort((a, b) => Math.abs(Math.log10(a[1])) - Math.abs(Math.log10(b[1])));
}
