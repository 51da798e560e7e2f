import type { Transform } from '../types.ts';

/** One typo: two inner letters of the question's longest plain word (seven letters or more) swapped. */
export const typo: Transform = {
  name: 'typo',
  kind: 'invariant',
  family: 'surface',
  describe: 'two letters of the longest plain word swapped',
  apply(question) {
    const words = [...question.matchAll(/\b[a-z]{7,}\b/g)].sort((a, b) => b[0].length - a[0].length || a.index - b.index);
    const w = words[0];
    if (!w) return null;
    const i = Math.floor(w[0].length / 2);
    if (w[0][i] === w[0][i + 1]) return null;
    const swapped = w[0].slice(0, i) + w[0][i + 1] + w[0][i] + w[0].slice(i + 2);
    return question.slice(0, w.index) + swapped + question.slice(w.index + w[0].length);
  },
};
