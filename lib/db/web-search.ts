/**
 * A reader's search words as PostgreSQL's `websearch_to_tsquery` can always read them. It keeps what that syntax
 * offers — "quoted phrases", `or`, `-word` to leave a word out, hyphenated words — but PostgreSQL builds every `-`
 * in front of a term as a NOT on a fixed stack of 32: a run of dashes ("----", "- - -", a pasted table rule) failed
 * the whole search with "tsquery stack too small" (a 500). So a dash is kept only inside a word ("solid-state",
 * "1-2") or in front of one after a space, at most `MAX_EXCLUDED` times; every other dash is a space.
 */
export const MAX_EXCLUDED = 8;

/**
 * At most this many words are searched, counted as PostgreSQL's parser counts them (the rest are left out, and
 * `webSearchText` says so): each is a lexeme of the query, and words joined by punctuation a phrase to check.
 */
export const MAX_SEARCH_WORDS = 64;

export interface WebSearchText {
  /** What is passed to websearch_to_tsquery. */
  text: string;
  /** Words left out beyond MAX_SEARCH_WORDS (0: none). */
  dropped: number;
}

const WORD = /[\p{L}\p{N}]/u;

export function webSearchText(q: string): WebSearchText {
  let excluded = 0;
  let out = '';
  for (let i = 0; i < q.length; i++) {
    const c = q[i];
    if (c !== '-' && c !== '\u2212') {
      out += c;
      continue;
    }
    const before = q[i - 1];
    const after = q[i + 1];
    const inWord = before !== undefined && after !== undefined && WORD.test(before) && WORD.test(after);
    const leavesOut = (before === undefined || /\s/.test(before)) && after !== undefined && WORD.test(after) && excluded < MAX_EXCLUDED;
    if (leavesOut) excluded++;
    out += inWord || leavesOut ? '-' : ' ';
  }
  // Words as PostgreSQL's parser counts them (runs of letters and digits: "1±1±1" is three, joined in a phrase).
  const runs = [...out.matchAll(/[\p{L}\p{N}]+/gu)];
  const dropped = Math.max(0, runs.length - MAX_SEARCH_WORDS);
  const kept = dropped ? out.slice(0, runs[MAX_SEARCH_WORDS - 1].index! + runs[MAX_SEARCH_WORDS - 1][0].length) : out;
  return { text: kept.replace(/\s+/g, ' ').trim(), dropped };
}
