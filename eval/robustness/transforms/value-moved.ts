import { isCondition, pick, quantitiesOf, replaceSpan, rewriteQuantity, significantDigits, writeNumber } from '../text.ts';
import type { Transform } from '../types.ts';

/** The value asked about moved far beyond any tolerance (× 3 or ÷ 2.5): a near miss the corpus does not state. */
export const valueMoved: Transform = {
  name: 'value-moved',
  kind: 'change',
  family: 'value',
  describe: 'the value asked about multiplied by 3 or divided by 2.5',
  apply(question) {
    const qs = quantitiesOf(question);
    const q = qs.find((x) => !isCondition(question, x)) ?? (qs.length === 1 ? qs[0] : undefined);
    if (!q) return null;
    const percent = q.dimension === 'fraction';
    const factor = percent && q.values.some((v) => v * 3 > 100) ? 0.4 : pick([3, 0.4], question);
    const text = rewriteQuantity(q, (w, v) => writeNumber(v * factor, Math.max(2, significantDigits(w))));
    return replaceSpan(question, q.start, q.end, text);
  },
};
