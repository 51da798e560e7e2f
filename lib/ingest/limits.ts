import type { DocumentLimits } from '../common/document-limits.ts';
import type { ParsedParagraph, ParsedPaper } from './types.ts';

/** Titles, author names and other metadata fields are cut to this many characters. */
const FIELD_CHARS = 2_000;
const MAX_AUTHORS = 1_000;

// A sentence end: . ! ? followed by space and a capital, digit or bracket. Rough on purpose: this only chooses
// where an over-long paragraph is cut, not what a sentence is.
const SENTENCE_END = /[.!?]["')\]]?\s+(?=[A-Z0-9(["])/g;

/** Pieces of at most `max` characters, cut after sentence ends, else at the last space, else hard. */
export function splitLongText(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > max) {
    const window = text.slice(start, start + max);
    let cut = -1;
    for (const m of window.matchAll(SENTENCE_END)) if (m.index! + m[0].length > max / 4) cut = m.index! + m[0].length;
    if (cut < 0) {
      const space = window.lastIndexOf(' ');
      cut = space > max / 4 ? space + 1 : max;
    }
    pieces.push(text.slice(start, start + cut).trim());
    start += cut;
  }
  pieces.push(text.slice(start).trim());
  return pieces.filter(Boolean);
}

const plural = (n: number, what: string) => `${n.toLocaleString('en')} ${what}`;

/** The paper within the limits (long paragraphs split, metadata cut), or why it is refused. */
export function boundPaper(paper: ParsedPaper, limits: DocumentLimits): { paper: ParsedPaper; split: number } | { error: string } {
  const chars = paper.paragraphs.reduce((n, p) => n + p.text.length, 0) + (paper.abstract?.length ?? 0);
  if (chars > limits.paperChars)
    return {
      error: `the paper holds ${plural(chars, 'characters')} of text; the limit is ${plural(limits.paperChars, 'characters')} (ASSAY_MAX_PAPER_CHARS)`,
    };
  // Counted before splitting too: a document of millions of tiny paragraphs is refused without building them.
  if (paper.paragraphs.length > limits.paragraphsPerPaper) return { error: tooMany(paper.paragraphs.length, limits) };
  let split = 0;
  const paragraphs: ParsedParagraph[] = [];
  for (const p of paper.paragraphs) {
    const pieces = splitLongText(p.text, limits.paragraphChars);
    if (pieces.length > 1) split++;
    for (const [i, text] of pieces.entries()) paragraphs.push({ ...p, text, externalId: i === 0 ? p.externalId : null });
    if (paragraphs.length > limits.paragraphsPerPaper) return { error: tooMany(paragraphs.length, limits) };
  }
  const cut = (s: string | null) => (s && s.length > FIELD_CHARS ? s.slice(0, FIELD_CHARS) : s);
  return {
    paper: {
      ...paper,
      title: cut(paper.title),
      journal: cut(paper.journal),
      // The abstract field is metadata (its text is also among the paragraphs, which are split, not cut).
      abstract: paper.abstract && splitLongText(paper.abstract, limits.paragraphChars)[0],
      authors: paper.authors.slice(0, MAX_AUTHORS).map((a) => a.slice(0, 300)),
      paragraphs,
    },
    split,
  };
}

function tooMany(n: number, limits: DocumentLimits): string {
  return `the paper has ${plural(n, 'paragraphs')} or more; the limit is ${plural(limits.paragraphsPerPaper, 'paragraphs')} (ASSAY_MAX_PARAGRAPHS)`;
}

/** Refuses an XML text with more than `max` elements, counted without parsing it. */
export function xmlElementCountError(text: string, max: number): string | null {
  let n = 0;
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
    const c = text.charCodeAt(i + 1);
    // An opening tag starts with a letter (closing tags, comments and declarations are not elements).
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) n++;
    if (n > max) return `the XML document has more than ${plural(max, 'elements')}, the limit (ASSAY_MAX_XML_ELEMENTS)`;
  }
  return null;
}
