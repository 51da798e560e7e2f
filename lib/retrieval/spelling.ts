import { findTypedFormulas } from '../structure/formula.ts';
import type { WordCheck } from './english-dictionary.ts';

/**
 * Typo-tolerant reading of questions: a word the corpus never uses ("supercondutivity", "reducton", "vapour") is
 * replaced by the corpus word nearest to it in edit distance (Damerau–Levenshtein: one edit for words up to seven
 * letters, two for longer ones; ties go to the more frequent word). Only ordinary words are corrected: formulas,
 * abbreviations and numbers are left as typed, because an unknown material must stay unknown; and, given a
 * dictionary (english-dictionary.ts), no English word is: "president" is not a typo of "present".
 */
export interface Vocabulary {
  /** How many times the corpus uses a lower-case word (0 when never). */
  count(word: string): number;
  /** Corpus words used at least twice, of length `len`, that share the first or the second letter of `word`. */
  near(word: string, len: number): readonly string[];
  size: number;
  /** What it was learned as (word → count), for a snapshot; `vocabularyFrom` reads it back. */
  counts: ReadonlyMap<string, number>;
}

export interface SpellingCorrection {
  text: string;
  corrections: { from: string; to: string }[];
}

const WORD = /[A-Za-z]+/g;
const MIN_LENGTH = 5;
/** Distinct unknown words a question's spelling looks up (see `correctSpelling`). */
export const MAX_LOOKUPS = 16;

/** The lower-case words of `texts` with their counts. */
export function learnVocabulary(texts: Iterable<string>): Vocabulary {
  const counts = new Map<string, number>();
  for (const text of texts) countWords(counts, text);
  return vocabularyFrom(counts);
}

/** The same, a few texts at a time with a turn for the event loop between (the server's index build). */
export async function learnVocabularySliced(texts: Iterable<string>, slice: () => Promise<void>): Promise<Vocabulary> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    countWords(counts, text);
    await slice();
  }
  return vocabularyFrom(counts);
}

function countWords(counts: Map<string, number>, text: string) {
  for (const m of text.matchAll(WORD))
    if (m[0].length >= 4) {
      const w = m[0].toLowerCase();
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
}

export function vocabularyFrom(counts: ReadonlyMap<string, number>): Vocabulary {
  // Buckets by length and first letter, and by length and second letter: a typo rarely hits both of a word's
  // first two letters, so these are the only words a misspelling needs to be compared with.
  const buckets = new Map<string, string[]>();
  const put = (key: string, w: string) => {
    const list = buckets.get(key);
    if (list) list.push(w);
    else buckets.set(key, [w]);
  };
  for (const [w, n] of counts) {
    if (n < 2) continue;
    put(`${w.length}:${w[0]}`, w);
    put(`${w.length}:_${w[1]}`, w);
  }
  return {
    count: (w) => counts.get(w) ?? 0,
    near: (w, len) => [...(buckets.get(`${len}:${w[0]}`) ?? []), ...(buckets.get(`${len}:_${w[1]}`) ?? [])],
    size: counts.size,
    counts,
  };
}

/** Damerau–Levenshtein distance (optimal string alignment), or `max + 1` once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length];
}

/** The corpus word nearest to `word` (lower case), or null when none is near enough. */
export function nearestWord(vocabulary: Vocabulary, word: string): string | null {
  const max = word.length >= 8 ? 2 : 1;
  let best: { w: string; d: number; n: number } | null = null;
  for (let len = word.length - max; len <= word.length + max; len++) {
    for (const w of vocabulary.near(word, len)) {
      const d = editDistance(word, w, max);
      if (d > max) continue;
      const n = vocabulary.count(w);
      if (!best || d < best.d || (d === best.d && n > best.n)) best = { w, d, n };
    }
  }
  return best?.w ?? null;
}

/**
 * The question with formulas typed in lower case and spaced out joined ("gd sr2 ru cu2 o8" → GdSr2RuCu2O8), and its
 * misspelt ordinary words replaced by the corpus words nearest to them.
 */
/** Whether the word at `at` starts a sentence: nothing before it, or a full stop (and a closing quote) before its spaces. */
function startsSentence(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  while (i >= 0 && /["”’)]/.test(text[i])) i--;
  return i < 0 || /[.?!:;]/.test(text[i]);
}

/** British spellings and the American ones papers mostly use (vapour, sulphur, characterise, analyse, fibre, aluminium). */
const BRITISH: readonly [RegExp, string][] = [
  [/^(\w{3,})our(s|ed|ing|able|ably|ite|ites)?$/, '$1or$2'],
  [/^(\w{2,})is(e|es|ed|ing|ation|ations|er|ers)$/, '$1iz$2'],
  [/^(\w{2,})ys(e|es|ed|ing|er|ers)$/, '$1yz$2'],
  [/^sulph(\w*)$/, 'sulf$1'],
  [/^(\w{2,}[bt])re(s|d)?$/, '$1er$2'],
  [/^(\w{2,})lled$/, '$1led'],
  [/^(\w*)ae(\w+)$/, '$1e$2'],
  [/^aluminium$/, 'aluminum'],
];

/**
 * The American spelling of a British word the corpus uses less than it ("vapour" → "vapor", "sulphur" → "sulfur"),
 * or null. A rule only proposes: the corpus decides ("four" is no "for", "contour" no "contor").
 */
export function americanSpelling(vocabulary: Pick<Vocabulary, 'count'>, lower: string): string | null {
  if (lower.length < 5) return null;
  const own = vocabulary.count(lower);
  for (const [rule, to] of BRITISH) {
    if (!rule.test(lower)) continue;
    const american = lower.replace(rule, to);
    if (american !== lower && vocabulary.count(american) > own) return american;
  }
  return null;
}

export function correctSpelling(vocabulary: Vocabulary, question: string, isEnglish?: WordCheck): SpellingCorrection {
  const corrections: { from: string; to: string }[] = [];
  let typed = question;
  for (const f of findTypedFormulas(question).reverse()) {
    corrections.unshift({ from: question.slice(f.start, f.end), to: f.joined });
    typed = typed.slice(0, f.start) + f.joined + typed.slice(f.end);
  }
  if (vocabulary.size === 0) return { text: typed, corrections };
  // Each unknown word is looked up once per question, and at most MAX_LOOKUPS of them: a lookup compares the word
  // with every corpus word of about its length and letters (8 ms for a long one on the shared corpus), so a pasted
  // text of 200 misspelt words cost seconds. Past the cap the words stay as typed. The dictionary is asked once per
  // distinct word too: a pasted text repeats its words, and each check runs the affix rules.
  const nearest = new Map<string, string | null>();
  const english = new Map<string, boolean>();
  const isEnglishWord = (lower: string) => {
    let known = english.get(lower);
    if (known === undefined) english.set(lower, (known = isEnglish?.(lower) ?? false));
    return known;
  };
  const text = typed.replace(/(?<![\p{L}\p{N}-])[A-Za-z][a-z]+(?![\p{L}\p{N}])/gu, (w, at: number) => {
    const lower = w.toLowerCase();
    // A capitalised word inside a sentence is a name ("Nobel", "Curie", "Stober"), the user's to spell: a name the
    // corpus does not hold stays unknown rather than becoming another word ("Novel").
    if (w[0] !== lower[0] && !startsSentence(typed, at)) return w;
    // A British spelling of a word the papers write the American way, even though it is English and used once.
    const american = americanSpelling(vocabulary, lower);
    if (american) {
      const fixed = w[0] === w[0].toUpperCase() ? american[0].toUpperCase() + american.slice(1) : american;
      corrections.push({ from: w, to: fixed });
      return fixed;
    }
    if (lower.length < MIN_LENGTH || vocabulary.count(lower) > 0 || isEnglishWord(lower)) return w;
    if (!nearest.has(lower) && nearest.size < MAX_LOOKUPS) nearest.set(lower, nearestWord(vocabulary, lower));
    const to = nearest.get(lower);
    if (!to) return w;
    const fixed = w[0] === w[0].toUpperCase() ? to[0].toUpperCase() + to.slice(1) : to;
    corrections.push({ from: w, to: fixed });
    return fixed;
  });
  return { text, corrections };
}
