export interface Sentence {
  text: string;
  start: number;
  end: number;
}

/**
 * Splits a paragraph into sentences at ". " / "! " / "? " before a capital or "(", but not after common
 * abbreviations ("ca.", "e.g.", "Fig.", "vs.", "et al.") nor inside numbers ("0.5 g"). Offsets index `text`.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const boundary = /[.!?]\s+(?=[A-Z(])/g;
  // The first sentence starts at the first character (a paragraph's blanked front matter is no part of it).
  let start = Math.max(0, text.search(/\S/));
  let m: RegExpExecArray | null;
  while ((m = boundary.exec(text))) {
    if (/\b(?:ca|approx|e\.g|i\.e|Fig|Ref|vs|al|Eq)\.$/.test(text.slice(Math.max(0, m.index - 6), m.index + 1))) continue;
    out.push({ text: text.slice(start, m.index + 1), start, end: m.index + 1 });
    start = m.index + m[0].length;
  }
  if (start < text.length) out.push({ text: text.slice(start), start, end: text.length });
  return out;
}
