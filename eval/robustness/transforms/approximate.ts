import { before, isCondition, pick, quantitiesOf, replaceSpan } from '../text.ts';
import type { Transform } from '../types.ts';

const WORDS = ['about', 'around', 'roughly', '~', 'approximately', 'close to'];

/** A value given approximately: "560 mW cm−2" → "about 560 mW cm−2" (the value asked about before a condition). */
export const approximate: Transform = {
  name: 'approximate',
  kind: 'invariant',
  family: 'value',
  describe: 'a value qualified as approximate ("about", "~", "roughly")',
  apply(question) {
    const qs = quantitiesOf(question).filter((q) => !q.comparator && !/(?:about|around|roughly|approximately|nearly|~|≈)\s*$/i.test(before(question, q.start)));
    const q = qs.find((x) => !isCondition(question, x)) ?? qs[0];
    if (!q) return null;
    const word = pick(WORDS, question);
    return replaceSpan(question, q.start, q.start, word === '~' ? '~' : `${word} `);
  },
};
