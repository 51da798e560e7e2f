import { InputError } from './types.ts';

/** Collapses runs of whitespace (incl. NBSP and line breaks) and trims; NFC so equal text hashes equally. */
export function cleanText(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

const doiPattern = /\b(10\.\d{4,9}\/[^\s"'<>]+)/i;

/** Canonical DOI: lower case, no resolver prefix or trailing punctuation; null when it is not a DOI. */
export function normaliseDoi(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const m = doiPattern.exec(raw.trim());
  if (!m) return null;
  return m[1].replace(/[.,;:)\]}]+$/, '').toLowerCase();
}

/** Finds a labelled DOI ("doi: 10.…", "https://doi.org/10.…") near the start of a text, never in references. */
export function findLabelledDoi(text: string, window = 4000): string | null {
  const head = text.slice(0, window);
  const m = /(?:\bdoi\s*[:=]?\s*|doi\.org\/)(10\.\d{4,9}\/[^\s"'<>]+)/i.exec(head);
  return m ? normaliseDoi(m[1]) : null;
}

/**
 * Decodes bytes to text: a BOM decides (UTF-8/UTF-16), else the encoding the file declares (XML prolog), else
 * strict UTF-8. Undecodable input is an error naming the byte offset, never silently replaced characters.
 */
export function decodeText(bytes: Uint8Array, declared?: string | null): string {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return strictDecode(bytes.subarray(3), 'utf-8');
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return strictDecode(bytes.subarray(2), 'utf-16le');
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return strictDecode(bytes.subarray(2), 'utf-16be');
  if (declared && !/^utf-?8$/i.test(declared)) {
    let decoder: TextDecoder;
    try {
      decoder = new TextDecoder(declared, { fatal: true });
    } catch {
      throw new InputError(`unsupported character encoding "${declared}" declared by the file`);
    }
    return strictDecode(bytes, decoder.encoding);
  }
  return strictDecode(bytes, 'utf-8');
}

function strictDecode(bytes: Uint8Array, encoding: string): string {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    const offset = encoding === 'utf-8' ? firstInvalidUtf8(bytes) : -1;
    throw new InputError(`the file is not valid ${encoding.toUpperCase()}${offset >= 0 ? ` (first bad byte at offset ${offset})` : ''}; re-save it as UTF-8`);
  }
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let lo = 0;
  let hi = bytes.length;
  // Binary search for the shortest invalid prefix (a valid prefix may end mid-character: allow 3 bytes slack).
  const valid = (n: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (valid(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** True when the bytes look like binary data rather than text (NUL bytes, or many control characters). */
export function looksBinary(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  let control = 0;
  for (const b of head) {
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return control / head.length > 0.05;
}
