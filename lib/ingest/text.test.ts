import { describe, expect, it } from 'vitest';
import { cleanText, decodeText, findLabelledDoi, looksBinary, normaliseDoi } from './text.ts';
import { InputError } from './types.ts';

describe('normaliseDoi', () => {
  it('strips resolver prefixes, labels and trailing punctuation, and lower-cases', () => {
    expect(normaliseDoi('https://doi.org/10.1038/NCOMMS13990')).toBe('10.1038/ncomms13990');
    expect(normaliseDoi('doi:10.1016/S0360-5442(98)00070-X.')).toBe('10.1016/s0360-5442(98)00070-x');
    expect(normaliseDoi(' 10.3390/ma11020196; ')).toBe('10.3390/ma11020196');
  });
  it('returns null for things that are not DOIs', () => {
    expect(normaliseDoi('')).toBeNull();
    expect(normaliseDoi(null)).toBeNull();
    expect(normaliseDoi('ISBN 978-3-16-148410-0')).toBeNull();
  });
  it('finds a labelled DOI near the top but not a bare one in references', () => {
    expect(findLabelledDoi('Title\nDOI: 10.1000/xyz123\nAbstract')).toBe('10.1000/xyz123');
    expect(findLabelledDoi('Title\n[1] A. Author, J. Chem. 10.1000/ref1 (2001)')).toBeNull();
  });
});

describe('decodeText', () => {
  it('decodes UTF-8 with and without BOM', () => {
    expect(decodeText(Buffer.from('\uFEFFLa0.6Sr0.4CoO3−δ', 'utf8'))).toBe('La0.6Sr0.4CoO3−δ');
    expect(decodeText(Buffer.from('800 °C', 'utf8'))).toBe('800 °C');
  });
  it('decodes UTF-16 files by their BOM', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('σ = 0.1 S cm⁻¹', 'utf16le')]);
    expect(decodeText(le)).toBe('σ = 0.1 S cm⁻¹');
  });
  it('honours a declared legacy encoding', () => {
    expect(decodeText(Buffer.from([0x38, 0x30, 0x30, 0x20, 0xb0, 0x43]), 'ISO-8859-1')).toBe('800 °C');
  });
  it('rejects invalid UTF-8 with the offset of the first bad byte instead of inventing characters', () => {
    const bytes = Buffer.from([0x41, 0x42, 0xb0, 0x43]);
    expect(() => decodeText(bytes)).toThrow(InputError);
    expect(() => decodeText(bytes)).toThrow(/not valid UTF-8 \(first bad byte at offset 2\)/);
  });
  it('rejects an unknown declared encoding', () => {
    expect(() => decodeText(Buffer.from('x'), 'klingon-1')).toThrow(/unsupported character encoding/);
  });
});

describe('cleanText and looksBinary', () => {
  it('collapses whitespace including NBSP and newlines, and normalises to NFC', () => {
    expect(cleanText('  a\u00a0 b\n\tc  ')).toBe('a b c');
    expect(cleanText('Cafe\u0301')).toBe('Café');
  });
  it('flags NUL bytes and control noise as binary, not ordinary text', () => {
    expect(looksBinary(Buffer.from([0x25, 0x00, 0x01]))).toBe(true);
    expect(looksBinary(Buffer.from('plain text\nwith lines\r\n'))).toBe(false);
  });
});
