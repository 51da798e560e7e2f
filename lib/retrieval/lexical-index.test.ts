import { describe, expect, it } from 'vitest';
import { LexicalIndex } from './lexical-index.ts';

describe('LexicalIndex.query', () => {
  // In a small library every word is in more than 10 % of the documents, so only the rarest three survive.
  const index = new LexicalIndex(
    [
      { id: 'a', fields: { text: ['nico2o4', 'nanowir', 'nickel', 'foam', 'hydrotherm'] } },
      { id: 'b', fields: { text: ['lscf', 'cathod', 'power', 'densiti'] } },
      { id: 'c', fields: { text: ['nickel', 'anod', 'power'] } },
    ],
    { text: 1 },
  );
  it('keeps the rarest words the index has, whatever words it lacks', () => {
    const hits = index.query(['electrospin', 'which', 'report', 'nico2o4', 'nickel', 'foam']);
    expect(hits[0]?.id).toBe('a');
  });
  it('returns nothing for words no document has', () => {
    expect(index.query(['quantum', 'graviti'])).toEqual([]);
  });
});
