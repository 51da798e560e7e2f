import { pick } from '../text.ts';
import type { Transform } from '../types.ts';

// Only descriptors that keep the meaning: "-infiltrated" or "-supported" name a route or a structure of their own.
const SUFFIXES = ['-based', '-containing', '-type'];
// An acronym of two to five capitals (LSM, GDC, YSZ, LSCF) before a noun of the field.
const ACRONYM_BEFORE_NOUN = /\b([A-Z]{2,5})\s+(cathodes?|anodes?|electrodes?|electrolytes?|films?|composites?|scaffolds?|cells?)\b/;

/** An acronym given a descriptor, as people write it: "LSM cathode" → "LSM-based cathode". */
export const descriptorSuffix: Transform = {
  name: 'descriptor-suffix',
  kind: 'invariant',
  family: 'name',
  describe: 'an acronym written with a descriptor after it (LSM-based, GDC-containing, LSCF-type)',
  apply(question) {
    const m = ACRONYM_BEFORE_NOUN.exec(question);
    if (!m) return null;
    return `${question.slice(0, m.index)}${m[1]}${pick(SUFFIXES, question)} ${m[2]}${question.slice(m.index + m[0].length)}`;
  },
};
