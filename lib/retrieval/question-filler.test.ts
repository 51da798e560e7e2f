import { describe, expect, it } from 'vitest';
import { plainTerms } from '../structure/terms.ts';
import { fillerTerms } from './question.ts';

describe('fillerTerms', () => {
  const has = (set: ReadonlySet<string>, word: string) => plainTerms(word).every((t) => set.has(t));

  it('finds the words of asking, courtesy and units in a question typed in a reviewer’s or a student’s words', () => {
    const f = fillerTerms('I recall a fuel-cell study that reached roughly 740 mW per square centimetre; could you please point me to it?');
    for (const w of ['recall', 'reached', 'roughly', 'square', 'centimetre', 'you', 'please', 'point']) expect(has(f, w), w).toBe(true);
    for (const w of ['fuel-cell', 'study']) expect(has(f, w), w).toBe(false);
    const g = fillerTerms('cells gave 0.4 amps per sq cm at 650 degrees, 26.5 kelvin');
    for (const w of ['gave', 'amps', 'sq', 'degrees', 'kelvin']) expect(has(g, w), w).toBe(true);
    expect(has(g, 'cells')).toBe(false);
    // A text is tagged once: the term and subject checks of one question share the answer.
    expect(fillerTerms('cells gave 0.4 amps per sq cm at 650 degrees, 26.5 kelvin')).toBe(g);
  });

  it('keeps what describes a subject: nouns, adjectives, gerunds, and past forms before a noun', () => {
    const f = fillerTerms('the paper that discusses anchoring nickel phosphide in doped carbon as a sulfonated proton membrane');
    for (const w of ['anchoring', 'nickel', 'phosphide', 'doped', 'carbon', 'sulfonated', 'proton', 'membrane']) expect(has(f, w), w).toBe(false);
  });
});
