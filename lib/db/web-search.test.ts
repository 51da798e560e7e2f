import { describe, expect, it } from 'vitest';
import { MAX_EXCLUDED, MAX_SEARCH_WORDS, webSearchText } from './web-search.ts';

describe('webSearchText', () => {
  it('keeps words, phrases, or and hyphenated words as typed', () => {
    expect(webSearchText('"solid oxide" fuel-cell or SOFC').text).toBe('"solid oxide" fuel-cell or SOFC');
    expect(webSearchText('La0.6Sr0.4CoO3 1-2 nm').text).toBe('La0.6Sr0.4CoO3 1-2 nm');
  });
  it('keeps a dash that leaves a word out, at most MAX_EXCLUDED times, and makes every other dash a space', () => {
    expect(webSearchText('ceria -zirconia').text).toBe('ceria -zirconia');
    expect(webSearchText('- - ---- a--b -').text).toBe('a b');
    const many = Array.from({ length: 20 }, (_, i) => `-w${i}`).join(' ');
    expect(
      webSearchText(many)
        .text.split(' ')
        .filter((w) => w.startsWith('-')),
    ).toHaveLength(MAX_EXCLUDED);
  });
  it('reads at most MAX_SEARCH_WORDS words and says how many it left out', () => {
    const r = webSearchText('word '.repeat(MAX_SEARCH_WORDS + 6));
    expect(r.text.split(' ')).toHaveLength(MAX_SEARCH_WORDS);
    expect(r.dropped).toBe(6);
    expect(webSearchText('two words').dropped).toBe(0);
  });
});

describe('webSearchText on words joined by punctuation', () => {
  it('counts the words PostgreSQL counts, not the spaces: "1±1±…" is cut after the 64th number', () => {
    const r = webSearchText('1±'.repeat(250));
    expect(r.text.match(/1/g)).toHaveLength(MAX_SEARCH_WORDS);
    expect(r.dropped).toBe(250 - MAX_SEARCH_WORDS);
  });
});
