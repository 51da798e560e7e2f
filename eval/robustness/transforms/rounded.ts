import { isCondition, quantitiesOf, replaceSpan, rewriteQuantity, significantDigits, writeNumber } from '../text.ts';
import type { Transform } from '../types.ts';

/** A value rounded to two significant digits, as people recall it: 864 → 860, 0.372 → 0.37, 12.2 GPa → 12 GPa. */
export const rounded: Transform = {
  name: 'rounded',
  kind: 'invariant',
  family: 'value',
  describe: 'a value rounded to two significant digits',
  apply(question) {
    const qs = quantitiesOf(question).filter((q) => q.dimension !== 'temperature' || !isCondition(question, q));
    for (const q of [...qs.filter((x) => !isCondition(question, x)), ...qs]) {
      let changed = false;
      const text = rewriteQuantity(q, (w, v) => {
        if (significantDigits(w) < 3) return w;
        const r = writeNumber(v, 2);
        if (r !== w) changed = true;
        return r;
      });
      if (changed) return replaceSpan(question, q.start, q.end, text);
    }
    return null;
  },
};
