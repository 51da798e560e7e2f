import { isCondition, quantitiesOf, replaceSpan, rewriteQuantity, significantDigits, writeNumber } from '../text.ts';
import type { Transform } from '../types.ts';

const ATMOSPHERES: [RegExp, string][] = [
  [/\b(in|under) (?:air)\b/i, '$1 pure hydrogen'],
  [/\b(in|under) (?:hydrogen|H2)\b/i, '$1 air'],
  [/\b(in|under) (?:argon|Ar|nitrogen|N2)\b/i, '$1 air'],
  [/\b(in|under) (?:oxygen|O2)\b/i, '$1 hydrogen'],
];

/**
 * Another condition: the temperature a value was measured at 200 degrees away, a pressure or duration × 4, or
 * another atmosphere. Only conditions the question states besides what it asks about.
 */
export const conditionChanged: Transform = {
  name: 'condition-changed',
  kind: 'change',
  family: 'condition',
  describe: 'a stated condition changed: temperature ± 200 °, pressure or time × 4, another atmosphere',
  apply(question) {
    const qs = quantitiesOf(question);
    const q = qs.length > 1 || qs.some((x) => !isCondition(question, x)) ? qs.find((x) => isCondition(question, x)) : undefined;
    if (q) {
      const shift = (w: string, v: number) =>
        q.dimension === 'temperature' ? String(v >= 600 && q.canonical[0] > 873 ? v - 200 : v + 200) : writeNumber(v * 4, Math.max(1, significantDigits(w)));
      return replaceSpan(question, q.start, q.end, rewriteQuantity(q, shift));
    }
    for (const [re, by] of ATMOSPHERES) if (re.test(question)) return question.replace(re, by);
    return null;
  },
};
