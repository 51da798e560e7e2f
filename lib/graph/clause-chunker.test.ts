import { describe, expect, it } from 'vitest';
import { classify, nounPhrase, ofTail, tokenize } from './clause-chunker.ts';

const tags = (s: string) => tokenize(s).map((t) => `${t.text}/${t.tag}${t.lemma && t.tag === 'verb' ? `:${t.lemma}` : ''}`);

describe('the clause chunker', () => {
  it('tags closed-class words, verb forms with their lemma, and leaves names and formulas as words', () => {
    expect(tags('The La0.6Sr0.4CoO3 cathode exhibited a power density of 0.8 W cm-2.')).toEqual([
      'The/det',
      'La0.6Sr0.4CoO3/word',
      'cathode/word',
      'exhibited/verb:exhibit',
      'a/det',
      'power/word',
      'density/word',
      'of/prep',
      '0.8/word',
      'W/word',
      'cm-2/word',
      './punct',
    ]);
    expect(classify('was', 0)).toMatchObject({ tag: 'aux', lemma: 'be' });
    expect(classify('underwent', 0)).toMatchObject({ tag: 'verb', lemma: 'undergo' });
    expect(classify('carries', 0).tag).toBe('word');
  });

  it('reads lab verbs as verbs only in their past participle ("charge transfer" stays a noun phrase)', () => {
    expect(classify('purchased', 0)).toMatchObject({ tag: 'verb', lemma: 'purchase' });
    expect(classify('transfer', 0).tag).toBe('word');
    expect(classify('supply', 0).tag).toBe('word');
    const tokens = tokenize('The charge transfer resistance decreased.');
    expect(nounPhrase(tokens, 0, 'The charge transfer resistance decreased.')?.text).toBe('charge transfer resistance');
  });

  it('skips asides and citations but keeps a formula that starts with a bracket', () => {
    expect(tokenize('Yttria-stabilised zirconia (YSZ) [12] was used.').map((t) => t.text)).toEqual(['Yttria-stabilised', 'zirconia', 'was', 'used', '.']);
    expect(tokenize('(NH4)2SO4 was added.').map((t) => t.text)).toEqual(['(NH4)2SO4', 'was', 'added', '.']);
    // The aside's own trailing comma still ends the phrase before it.
    expect(tokenize('NiO (Aldrich), YSZ').map((t) => `${t.text}/${t.tag}`)).toEqual(['NiO/word', ',/punct', 'YSZ/word']);
  });

  it('reads noun phrases with participle modifiers, and the "of" phrase that follows one', () => {
    const sentence = 'The sintering temperature of the doped ceria was 1400 °C.';
    const tokens = tokenize(sentence);
    const head = nounPhrase(tokens, 0, sentence);
    expect(head?.text).toBe('sintering temperature');
    expect(ofTail(tokens, head!, sentence)?.text).toBe('doped ceria');
    // A phrase ends at a preposition or verb; a run of more than eight words is not a phrase.
    expect(nounPhrase(tokenize('one two three four five six seven eight nine'), 0, 'one two three four five six seven eight nine')).toBeNull();
  });

  it('drops an adverb grading the first adjective of a phrase ("highly pure SrCO3")', () => {
    const sentence = 'highly pure SrCO3 was dissolved';
    expect(nounPhrase(tokenize(sentence), 0, sentence)?.text).toBe('pure SrCO3');
  });
});
