import { plainTerms } from '../structure/terms.ts';

/**
 * Abbreviations the corpus itself defines ("open circuit voltage (OCV)", "OCV (open circuit voltage)"), learned
 * when the index is built, so that a question typed with "OCV", "PPD", "rGO" or "DSSC" meets papers that spell the
 * words out and the other way round. The matching of a short form's letters to its long form is the algorithm of
 * Schwartz & Hearst (PSB 2003): each letter, right to left, must occur in the long form, the first at a word start.
 */
export interface Abbreviations {
  /** Number of short forms learned. */
  size: number;
  /** The long form the corpus gives a short form most often ("OCV" → "open circuit voltage"), or null. */
  longForm(shortForm: string): string | null;
  /** Index terms to add to a query: the long forms of its short forms and the short forms of its long forms. */
  expansions(text: string): string[];
  /** What it was learned as (short form → long form → count), for a snapshot; `abbreviationsFrom` reads it back. */
  counts: AbbreviationCounts;
}

const SHORT_FORM = /^(?=.*[A-Z])[A-Za-z][A-Za-z0-9-]{1,9}$/;
// "(OCV)" after its long form, or "OCV (open circuit voltage)".
const PAREN = /\(([^()]{2,80})\)/g;
const WORDS_BEFORE = /((?:[\p{L}\p{N}][\p{L}\p{N}'-]*[\s,]+){1,12})$/u;

/** The shortest tail of `candidate` whose words spell `short` (Schwartz & Hearst), or null. */
export function matchLongForm(short: string, candidate: string): string | null {
  const sf = short.toLowerCase();
  const lf = candidate.toLowerCase();
  let l = lf.length - 1;
  for (let s = sf.length - 1; s >= 0; s--) {
    const c = sf[s];
    if (!/[a-z0-9]/.test(c)) continue;
    while (l >= 0 && (lf[l] !== c || (s === 0 && l > 0 && /[a-z0-9]/.test(lf[l - 1])))) l--;
    if (l < 0) return null;
    l--;
  }
  const start = lf.lastIndexOf(' ', l) + 1;
  const long = candidate.slice(start).trim();
  const words = long.split(/[\s–-]+/);
  // A long form spells its short form out in words: more words than letters would swallow the sentence before it,
  // and digits mean a formula or a label ("SrTiO 3", "N 4nanoflake"), not words.
  if (words.length < 2 || words.length > short.length + 1 || /\d/.test(long) || long.toLowerCase().includes(sf)) return null;
  return long;
}

/** Learns the abbreviations defined in `texts`; a short form keeps the long form the corpus uses most. */
export function learnAbbreviations(texts: Iterable<string>): Abbreviations {
  const counts: AbbreviationCounts = new Map();
  for (const text of texts) countAbbreviations(counts, text);
  return abbreviationsFrom(counts);
}

/** The same, a few texts at a time with a turn for the event loop between (the server's index build). */
export async function learnAbbreviationsSliced(texts: Iterable<string>, slice: () => Promise<void>): Promise<Abbreviations> {
  const counts: AbbreviationCounts = new Map();
  for (const text of texts) {
    countAbbreviations(counts, text);
    await slice();
  }
  return abbreviationsFrom(counts);
}

export type AbbreviationCounts = Map<string, Map<string, number>>;

function countAbbreviations(counts: AbbreviationCounts, text: string) {
  const add = (short: string, long: string) => {
    const key = long.toLowerCase().replace(/[–-]/g, ' ').replace(/\s+/g, ' ');
    let m = counts.get(short);
    if (!m) counts.set(short, (m = new Map()));
    m.set(key, (m.get(key) ?? 0) + 1);
  };
  if (!text.includes('(')) return;
  for (const m of text.matchAll(PAREN)) {
    const inside = m[1].trim();
    const before = text.slice(Math.max(0, m.index - 160), m.index);
    if (SHORT_FORM.test(inside)) {
      const words = before.match(WORDS_BEFORE)?.[1]?.replace(/[\s,]+$/, '');
      const long = words ? matchLongForm(inside, words) : null;
      if (long) add(inside, long);
    } else {
      const short = before.match(/([A-Za-z][A-Za-z0-9-]{1,9})\s*$/)?.[1];
      const long = short && SHORT_FORM.test(short) ? matchLongForm(short, inside.split(/[,;:]/)[0]) : null;
      if (short && long && long.length === inside.split(/[,;:]/)[0].trim().length) add(short, long);
    }
  }
}

export function abbreviationsFrom(counts: AbbreviationCounts): Abbreviations {
  const best = new Map<string, string>();
  for (const [short, longs] of counts) {
    const sorted = [...longs].sort((a, b) => b[1] - a[1]);
    const total = sorted.reduce((n, [, c]) => n + c, 0);
    // An abbreviation the corpus uses for several things ("PC") expands to none of them.
    if (sorted[0][1] / total >= 0.6) best.set(short, sorted[0][0]);
  }
  const byLong = new Map<string, string>();
  for (const [short, long] of best) if (!byLong.has(long)) byLong.set(long, short);
  const longestWords = Math.max(1, ...[...byLong.keys()].map((l) => l.split(' ').length));
  const shortTerms = new Map([...best.keys()].map((s) => [s, plainTerms(s)[0] ?? s.toLowerCase()]));
  return {
    size: best.size,
    counts,
    longForm: (s) => best.get(s) ?? null,
    expansions(text) {
      const out: string[] = [];
      for (const m of text.matchAll(/[A-Za-z][A-Za-z0-9-]{1,9}/g)) {
        const long = best.get(m[0]);
        if (long) out.push(...plainTerms(long));
      }
      const words = text
        .toLowerCase()
        .replace(/[–-]/g, ' ')
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean);
      for (let i = 0; i < words.length; i++)
        for (let n = Math.min(longestWords, words.length - i); n >= 2; n--) {
          const short = byLong.get(words.slice(i, i + n).join(' '));
          if (short) {
            out.push(shortTerms.get(short)!);
            break;
          }
        }
      return out;
    },
  };
}
