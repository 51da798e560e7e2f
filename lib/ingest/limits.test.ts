import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_LIMITS } from '../common/document-limits.ts';
import { boundPaper, splitLongText, xmlElementCountError } from './limits.ts';
import type { ParsedPaper } from './types.ts';

const paper = (texts: string[], extra: Partial<ParsedPaper> = {}): ParsedPaper => ({
  doi: null,
  title: 'T',
  authors: [],
  journal: null,
  year: null,
  license: null,
  source: 'Text',
  sourceId: null,
  domain: null,
  abstract: null,
  format: 'text',
  paragraphs: texts.map((text, i) => ({ text, section: 'Results', kind: 'body', externalId: `p${i}` })),
  ...extra,
});

describe('splitLongText', () => {
  it('cuts an over-long text after sentence ends, every piece within the limit, nothing lost', () => {
    const sentence = 'The LSM cathode reached 0.8 W cm−2 at 800 °C. ';
    const text = sentence.repeat(100).trim();
    const pieces = splitLongText(text, 500);
    expect(pieces.length).toBeGreaterThan(8);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(500);
      expect(p).toMatch(/°C\.$/);
    }
    expect(pieces.join(' ')).toBe(text);
  });
  it('cuts text without sentence ends at spaces, and a text without spaces hard', () => {
    const words = 'word '.repeat(400).trim();
    for (const p of splitLongText(words, 100)) expect(p.length).toBeLessThanOrEqual(100);
    const blob = 'x'.repeat(1050);
    expect(splitLongText(blob, 100).map((p) => p.length)).toEqual([...Array(10).fill(100), 50]);
    expect(splitLongText('short', 100)).toEqual(['short']);
  });
});

describe('boundPaper', () => {
  it('splits long paragraphs, keeping their section and their id on the first piece', () => {
    const long = 'The sample was sintered at 1400 °C for 4 h. '.repeat(1000);
    const r = boundPaper(paper(['short one', long]), DEFAULT_DOCUMENT_LIMITS);
    if ('error' in r) throw new Error(r.error);
    expect(r.split).toBe(1);
    expect(r.paper.paragraphs.length).toBeGreaterThan(2);
    expect(r.paper.paragraphs.every((p) => p.text.length <= DEFAULT_DOCUMENT_LIMITS.paragraphChars && p.section === 'Results')).toBe(true);
    expect(r.paper.paragraphs.map((p) => p.externalId).slice(0, 3)).toEqual(['p0', 'p1', null]);
  });
  it('refuses a paper with too much text or too many paragraphs, saying which limit and its setting', () => {
    const huge = boundPaper(paper(['a'.repeat(5_000_000)]), DEFAULT_DOCUMENT_LIMITS);
    expect(huge).toEqual({ error: 'the paper holds 5,000,000 characters of text; the limit is 2,000,000 characters (ASSAY_MAX_PAPER_CHARS)' });
    const many = boundPaper(paper(Array.from({ length: 6000 }, () => 'x')), DEFAULT_DOCUMENT_LIMITS);
    expect(many).toEqual({ error: 'the paper has 6,000 paragraphs or more; the limit is 5,000 paragraphs (ASSAY_MAX_PARAGRAPHS)' });
  });
  it('cuts over-long metadata', () => {
    const r = boundPaper(paper(['x'], { title: 't'.repeat(10_000), authors: Array.from({ length: 5000 }, () => 'A. Author') }), DEFAULT_DOCUMENT_LIMITS);
    if ('error' in r) throw new Error(r.error);
    expect(r.paper.title).toHaveLength(2000);
    expect(r.paper.authors).toHaveLength(1000);
  });
});

describe('xmlElementCountError', () => {
  it('counts opening tags without parsing, and refuses past the limit', () => {
    expect(xmlElementCountError('<a><b/><!-- c --><?pi?></a>', 2)).toBeNull();
    expect(xmlElementCountError('<a><b/><c/></a>', 2)).toBe('the XML document has more than 2 elements, the limit (ASSAY_MAX_XML_ELEMENTS)');
  });
});
