import { stemmer } from 'stemmer';
import { findChemicalNames } from './chemical-names.ts';
import { findSpacedFormulas, normaliseFormula, tidyFormula } from './formula.ts';
import { lexiconEntries } from './materials.ts';
import { findProperties } from './properties.ts';
import { parseQuantities, type Quantity } from './quantities.ts';

/**
 * Text → index terms. Two analyzers share one tokeniser:
 * - `plainTerms` (the raw pipelines): lower-cased, stemmed words; formulas ("BaZr0.1Ce0.7Y0.2O3−δ"), numbers and
 *   hyphenated terms ("Ni-YSZ") kept whole (hyphenated terms also give their parts).
 * - `structuredTerms` (the structured pipelines) adds canonical terms that make different spellings meet:
 *   `f:` formula in Hill order (from formulas and from names such as "strontium carbonate"), `m:` lexicon
 *   material ("YSZ" = "yttria-stabilized zirconia"), `p:` property ("Tc" = "superconducting transition
 *   temperature"), `q:` quantity in its canonical unit at three significant figures ("550 °C" = "823 K").
 */

const STOPWORDS = new Set(
  (
    'a an and are as at be been being by for from has have had in into is it its of on or than that the their then there these ' +
    'this those to was were which with within without we our us also can could may might such via was will would what when where ' +
    'who whom whose how do does did not no nor so very using used use based both each other some any all more most'
  ).split(' '),
);

// Words, formulas, numbers; inner joiners keep "Ni-YSZ", "Co3O4/NF", "La0.6Sr0.4CoO3−δ", "1.5" together.
const TOKEN = /\(?[\p{L}\p{N}](?:[\p{L}\p{N}]|[-–−·•∙⋅./+()[\]'](?=[\p{L}\p{N}([]))*[)\]]?/gu;

const isFormulaLike = (t: string) => /\d/.test(t) || /[A-Z].*[A-Z]/.test(t) || /^[A-Z][a-z]?$/.test(t);

function wordTerm(w: string): string | null {
  const lower = w.toLowerCase();
  if (STOPWORDS.has(lower) || lower.length < 2) return null;
  return /^[a-z]+$/.test(lower) ? stemmer(lower) : lower;
}

/**
 * Terms of the plain analyzer (spaced-out formulas also give their joined form). Results are memoised (bounded):
 * building the index analyses each paragraph for BM25, for the embedder's fit and for its vectors.
 */
export function plainTerms(text: string): string[] {
  const cached = plainTermCache.get(text);
  if (cached) return cached;
  const terms = computePlainTerms(text);
  if (plainTermCache.size > 30_000) plainTermCache.clear();
  plainTermCache.set(text, terms);
  return terms;
}
const plainTermCache = new Map<string, string[]>();

/**
 * Empties the memo: called when an index build is done, whose passes it serves. Kept, it would hold up to 30,000
 * whole paragraph or record texts and their terms for the life of the process (about 50 MB on the shared corpus).
 */
export function forgetPlainTerms(): void {
  plainTermCache.clear();
}

function computePlainTerms(text: string): string[] {
  const out: string[] = findSpacedFormulas(text).map((f) => f.joined.replace(/[−–]/g, '-'));
  for (const m of joinBrokenWords(text.normalize('NFKC')).matchAll(TOKEN)) {
    let tok = m[0].replace(/[.]+$/, '');
    if (tok.startsWith('(') && !tok.includes(')')) tok = tok.slice(1);
    if (tok.endsWith(')') && !tok.includes('(')) tok = tok.slice(0, -1);
    if (!tok) continue;
    if (isFormulaLike(tok) && /[A-Z\d]/.test(tok)) {
      // Formulas and codes keep their case (Co ≠ CO); a capitalised ordinary word does not ("The", "Samples").
      if (/^[A-Z][a-z]{2,}$/.test(tok)) {
        const w = wordTerm(tok);
        if (w) out.push(w);
      } else out.push(tok.replace(/[−–]/g, '-'));
    } else {
      const w = wordTerm(tok);
      if (w) out.push(w);
    }
    if (/[-–−/]/.test(tok)) {
      for (const part of tok.split(/[-–−/]/)) {
        if (part && part !== tok) {
          const w = isFormulaLike(part) ? part : wordTerm(part);
          if (w) out.push(w);
        }
      }
    }
  }
  return out;
}

/**
 * Words that PDF extraction broke at a line end ("pres- sure", "de- pendence") joined again, padded with spaces so
 * that every offset after them stays valid. A suspended hyphen ("pre- and post-annealing") is left alone.
 */
export function joinBrokenWords(text: string): string {
  if (!text.includes('- ')) return text;
  return text.replace(/(?<=\p{Ll}{2})- (?!(?:and|or|to|as|nor)\b)(\p{Ll}+)/gu, (_, rest: string) => `${rest}  `);
}

/**
 * Formulas that PDF extraction split with spaces ("MgB 2", "PrBa0.5Sr0.5Co2− xFexO5+ δ") written whole again,
 * padded after with spaces so that offsets stay valid (readers that bind values to materials need both).
 */
export function joinSplitFormulas(text: string): string {
  let out = text;
  for (const f of findSpacedFormulas(text)) {
    const written = text.slice(f.start, f.end).replace(/\s+/g, '');
    out = out.slice(0, f.start) + written.padEnd(f.end - f.start, ' ') + out.slice(f.end);
  }
  return out;
}

/**
 * A text as a reader should see it: words broken at line ends and formulas split by spaces joined, runs of
 * spaces folded. For display and quotation only: the stored paragraph stays verbatim, and provenance offsets index it.
 */
export function readableText(text: string): string {
  // Padding left before a closing mark or at the end ("MgB 2”" → "MgB2”") goes too. A degree sign that text
  // extraction turned into a letter o or a bullet ("600 oC", "29 • C", "800oC") is written as one.
  return joinSplitFormulas(joinBrokenWords(text))
    .replace(/ {2,}/g, ' ')
    .replace(/ +(?=[”’"),.;:!?]|$)/g, '')
    .replace(/(\d)\s?(?:o|º|•|˚)\s?C\b/g, '$1 °C');
}

/** A term of the plain analyzer with where it stands in the text. */
export interface TermSpan {
  term: string;
  start: number;
  end: number;
}

/**
 * The plain analyzer's terms with their offsets in `text` (words stemmed, formulas and numbers as written), for
 * measuring how near a word stands to a value; a spaced-out formula also gives its joined form. A stem's final "i" is read as "y" so that "dried" and "drying",
 * "dries" and "dry" meet.
 */
export function termSpans(text: string): TermSpan[] {
  const out: TermSpan[] = [];
  for (const m of joinBrokenWords(text).matchAll(TOKEN)) {
    const tok = m[0].replace(/[.]+$/, '').normalize('NFKC');
    const formula = isFormulaLike(tok) && /[A-Z\d]/.test(tok) && !/^[A-Z][a-z]{2,}$/.test(tok);
    const term = formula ? tok.replace(/^\(|\)$/g, '').replace(/[−–]/g, '-') : wordTerm(tok)?.replace(/i$/, 'y');
    if (term) out.push({ term, start: m.index, end: m.index + m[0].length });
    // "vacuum-dried" also states "dried", as the plain analyzer's parts do.
    if (!formula && /[-–]/.test(tok)) {
      let at = m.index;
      for (const part of m[0].split(/[-–]/)) {
        const t = wordTerm(part)?.replace(/i$/, 'y');
        if (t && part.length < m[0].length) out.push({ term: t, start: at, end: at + part.length });
        at += part.length + 1;
      }
    }
  }
  for (const f of findSpacedFormulas(text)) out.push({ term: f.joined.replace(/[−–]/g, '-'), start: f.start, end: f.end });
  return out.sort((a, b) => a.start - b.start);
}

/** Hill-order key of a formula (C, H, then alphabetical), so "(CH3COO)2Mn" and "Mn(CH3COO)2" meet. */
export function formulaKey(formula: string): string | null {
  const cached = formulaKeys.get(formula);
  if (cached !== undefined) return cached;
  // Ligand abbreviations chemists write inside formulas: OAc = acetate (NaOAc, Cu(OAc)2), AcOH = acetic acid,
  // acac = acetylacetonate.
  // Oxygen non-stoichiometry is written or left out at will ("La0.6Sr0.4CoO3−δ", "LaBaCo2O5+d", "YBa2Cu3O6+y"):
  // the key is that of the nominal formula.
  const expanded = formula
    .replace(/\(OAc\)/g, '(CH3COO)')
    .replace(/^AcOH$/, 'CH3COOH')
    .replace(/([A-Z][a-z]?)OAc$/, '$1CH3COO')
    .replace(/\(acac\)/g, '(C5H7O2)')
    .replace(/(O\d*(?:\.\d+)?)\s?[+\-−–±]\s?[δdxyz]$/, '$1');
  const parsed = normaliseFormula(expanded);
  let key: string | null;
  if (!parsed) key = /^[A-Z][a-z]?$/.test(formula) ? formula : null;
  else if (!parsed.composition) key = parsed.formula;
  else {
    const c = parsed.composition;
    const els = Object.keys(c).sort((a, b) => (a === 'C' ? -1 : b === 'C' ? 1 : a === 'H' ? -1 : b === 'H' ? 1 : a.localeCompare(b)));
    key = els.map((e) => `${e}${c[e] === 1 ? '' : c[e]}`).join('');
  }
  // Corpus text repeats the same formulas endlessly: parse each spelling once (bounded so memory stays flat).
  if (formulaKeys.size > 200_000) formulaKeys.clear();
  formulaKeys.set(formula, key);
  return key;
}
const formulaKeys = new Map<string, string | null>();

/** Canonical value of a quantity at three significant figures, as an index term. */
export function quantityTerm(dimension: string, value: number): string {
  const v = value === 0 ? 0 : Number.parseFloat(value.toPrecision(3));
  return `q:${dimension}:${v}`;
}

// Lexicon aliases. Names made of words and hyphens are found by phrase lookup over the text's words (fast on
// large corpora); the few with other punctuation ("N,N-dimethylformamide", "poly(vinylidene fluoride)") and the
// case-sensitive abbreviations ("GO" ≠ "go") by regular expression.
const lexicon = (() => {
  const aliases = lexiconEntries()
    .flatMap((e) => [e.key, e.label, ...e.aliases].map((a) => ({ a, key: e.key })))
    .filter((x) => x.a.length >= 2);
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const isName = (a: string) => /[a-z]{3,}/.test(a);
  const phrases = new Map<string, string>();
  const firstWords = new Set<string>();
  let longest = 1;
  const punctuated: typeof aliases = [];
  for (const x of aliases.filter((y) => isName(y.a))) {
    if (/^[\p{L}\p{N}]+(?:[ -–][\p{L}\p{N}]+)*$/u.test(x.a)) {
      const phrase = x.a.toLowerCase().replace(/–/g, '-');
      phrases.set(phrase, x.key);
      firstWords.add(phrase.split(' ')[0]);
      longest = Math.max(longest, x.a.split(' ').length);
    } else punctuated.push(x);
  }
  const byAlias = new Map(aliases.map((x) => [x.a.toLowerCase(), x.key]));
  const abbrs = aliases.filter((x) => !isName(x.a)).sort((a, b) => b.a.length - a.a.length);
  return {
    phrases,
    firstWords,
    longest,
    byAlias,
    punctuated: new RegExp(punctuated.map((x) => `(?<![\\w-])${esc(x.a)}(?![\\w])`).join('|'), 'gi'),
    abbrs: new RegExp(abbrs.map((x) => `(?<![\\w])${esc(x.a)}(?![a-z0-9])`).join('|'), 'g'),
  };
})();

const WORD = /[\p{L}\p{N}]+(?:[-–][\p{L}\p{N}]+)*/gu;

function lexiconMaterials(text: string, out: Set<string>) {
  const words = [...text.matchAll(WORD)].map((m) => m[0].toLowerCase().replace(/–/g, '-'));
  for (let i = 0; i < words.length; i++) {
    if (!lexicon.firstWords.has(words[i])) continue;
    for (let n = Math.min(lexicon.longest, words.length - i); n >= 1; n--) {
      const key = lexicon.phrases.get(n === 1 ? words[i] : words.slice(i, i + n).join(' '));
      if (key) {
        out.add(key);
        i += n - 1;
        break;
      }
    }
  }
  for (const re of [lexicon.punctuated, lexicon.abbrs]) {
    for (const m of text.matchAll(re)) {
      const key = lexicon.byAlias.get(m[0].toLowerCase());
      if (key) out.add(key);
    }
  }
}

export interface StructuredFacets {
  formulas: string[];
  materials: string[];
  properties: string[];
  quantities: Quantity[];
}

/** Canonical materials, properties and quantities of a text (the facets questions are matched on). */
export function textFacets(text: string): StructuredFacets {
  const formulas = new Set<string>();
  const materials = new Set<string>();
  const spaced = findSpacedFormulas(text);
  const inSpaced = (i: number) => spaced.some((f) => i >= f.start && i < f.end);
  for (const m of text.matchAll(TOKEN)) {
    if (spaced.length && inSpaced(m.index!)) continue; // a fragment of "Ba 1−x K x BiO 3" is not a material
    // A token cannot open with "[": a formula grouped in square brackets ("[Ce0.9Gd0.1]O2") gets its bracket back.
    const opened = text[m.index! - 1] === '[' && m[0].includes(']') && !m[0].includes('[') ? `[${m[0]}` : m[0];
    const tok = opened.replace(/[.,]+$/, '');
    if (!/[A-Z]/.test(tok) || !/\d|[A-Z].*[A-Z]|[a-z][A-Z]/.test(tok)) continue;
    // "Co3O4/NF", "Pt@C" name two materials; "SrCO3-derived", "LSCF-based" name one with a descriptor;
    // "graphene-Fe2O3", "NiO-YSZ" join materials with a hyphen (a hyphen before a capital: "Ba1−xKx" and "O3-δ" stay).
    // A hydrate also names its anhydrous compound ("Na0.3CoO2·yH2O" and "Na0.3CoO2·1.3H2O" share Na0.3CoO2).
    const hyphened = tok.split(/-(?=[A-Z])/);
    const candidates = [
      tok,
      ...tok.split(/[/@]/),
      tok.replace(/(?:-[a-z]{3,})+$/, ''),
      tok.split(/[·•∙⋅]/)[0],
      ...(hyphened.length > 1 ? hyphened.filter((p) => /[A-Z]/.test(p) && /\d|[A-Z].*[A-Z]|[a-z][A-Z]/.test(p)) : []),
    ];
    for (const c of candidates) {
      const k = formulaKey(tidyFormula(c.replace(/^\(+|\)+$/g, (p) => (c.split('(').length === c.split(')').length ? p : ''))));
      if (k && k.length > 1) formulas.add(k);
    }
  }
  // PDF-extracted formulas with spaces between symbols and counts ("Sr 0.9 La 0.1 CuO 2").
  for (const f of spaced) {
    const k = formulaKey(f.joined);
    if (k) formulas.add(k);
  }
  for (const c of findChemicalNames(text)) {
    const k = formulaKey(c.formula);
    if (k) formulas.add(k);
  }
  lexiconMaterials(text, materials);
  return {
    formulas: [...formulas],
    materials: [...materials],
    properties: [...new Set(findProperties(text).map((p) => p.key))],
    quantities: parseQuantities(text),
  };
}

/** Index terms for a set of facets. */
export function facetTerms(f: StructuredFacets): string[] {
  const out = [...f.formulas.map((x) => `f:${x}`), ...f.materials.map((x) => `m:${x}`), ...f.properties.map((x) => `p:${x}`)];
  for (const q of f.quantities) for (const v of q.canonical) out.push(quantityTerm(q.dimension, v));
  return out;
}

/** Terms of the structured analyzer: the plain terms plus the canonical ones. */
export function structuredTerms(text: string, facets: StructuredFacets = textFacets(text)): string[] {
  return [...plainTerms(text), ...facetTerms(facets)];
}
