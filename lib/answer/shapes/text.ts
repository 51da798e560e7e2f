import { type Evidence, paperOf, provenanceOf } from '../../evidence/model.ts';
import { splitSentences } from '../../structure/sentences.ts';
import { readableText } from '../../structure/terms.ts';

/** Sentence helpers the shapes share. */

/** The sentence of an item that contains `offset` (or its first). */
export function sentenceAt(e: Evidence, offset: number): string {
  const all = splitSentences(e.text);
  return (all.find((s) => offset >= s.start && offset < s.end) ?? all[0])?.text.trim() ?? e.text;
}

/** The sentence retrieval found stating most of the question, else the item's first sentence. */
export function bestSentenceOf(e: Evidence): string {
  return provenanceOf(e, 'sentence')[0]?.text.trim() ?? sentenceAt(e, 0);
}

/** A paper's title as a reader should see it (see readableText). */
export const titleOf = (e: Evidence): string | null => {
  const title = paperOf(e)?.title;
  return title ? readableText(title) : null;
};

/** “Title” (doi:…), or the DOI, or "an untitled paper". */
export function paperName(e: Evidence): string {
  const p = paperOf(e);
  if (p?.title) return `“${readableText(p.title)}”${p.doi ? ` (doi:${p.doi})` : ''}`;
  return p?.doi ? `doi:${p.doi}` : 'an untitled paper';
}

/** A sentence quoted in an answer, as a reader should see it (PDF-split words and formulas joined; see readableText). */
export const quote = (raw: string, max = 400) => {
  const s = readableText(raw);
  return `“${s.length > max ? `${s.slice(0, max).trimEnd()}…` : s}”`;
};

/** Trims a sentence's trailing full stop so it can be quoted inside another. */
export const bare = (s: string) => s.replace(/[.\s]+$/, '');
