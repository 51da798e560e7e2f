import { findChemicalNames } from '../../structure/chemical-names.ts';
import { formulaKey, plainTerms, textFacets } from '../../structure/terms.ts';
import { paperFacets } from '../coverage.ts';
import { isElementTerm } from '../facets.ts';
import type { RetrievalIndex } from '../index.ts';
import { statedTerms } from '../paper-caches.ts';
import { fillerTerms, QUESTION_FRAME_TERMS, type QuestionAnalysis } from '../question.ts';
import {
  ASKED_WORDS_OUTSIDE,
  ASKED_WORDS_STATED,
  DESCRIPTIVE_WORDS,
  MARGIN_MIN,
  PARAGRAPH_COVERAGE_MIN,
  TERM_COVERAGE_DESCRIBED,
  TERM_COVERAGE_MIN,
} from '../scoring.ts';

/**
 * The abstention check for descriptive questions ("the paper that discusses melamine-assisted anchoring of nickel
 * phosphide …"): they name few facets, so the words that make them specific must be found in the best paper too.
 */

/** Words that relate others ("under 12 GPa", "with a thin electrolyte"): no paper is described by them. */
const PREPOSITIONS = new Set(
  'about above across after against along among around at before behind below beneath beside between beyond by down during except for from in inside into near of off on onto out outside over per since than through throughout to toward towards under underneath until up upon via with within without'.split(
    ' ',
  ),
);

export interface TermCoverage {
  /** Share of the distinctive words (weighted by rarity) the paper states anywhere. */
  coverage: number;
  /** The same share for the paragraph (with the title) that states most of them. */
  paragraph: number;
  /** How many distinctive words the corpus knows. */
  words: number;
  missing: string[];
}

/** Whether the best paper fails the question's distinctive words (see TERM_COVERAGE_MIN and DESCRIPTIVE_WORDS). */
export function termsUnmet(terms: TermCoverage, margin: number): boolean {
  if (terms.coverage < TERM_COVERAGE_MIN) return true;
  if (terms.words < DESCRIPTIVE_WORDS) return false;
  return terms.coverage < TERM_COVERAGE_DESCRIBED || (terms.paragraph < PARAGRAPH_COVERAGE_MIN && margin < MARGIN_MIN);
}

/** Whether a question names nothing the facet checks judge: no material or formula-like word, property, value, technique or title. */
export function unanchored(analysis: QuestionAnalysis): boolean {
  const a = analysis;
  return !a.title && !a.materials.length && !a.entityWords.length && !a.properties.length && !a.quantities.length && !a.techniques.length;
}

/** The text with these spans blanked out (same length, so later spans still point where they did). */
function blankSpans(text: string, spans: readonly { start: number; end: number }[]): string {
  let out = text;
  for (const span of spans) out = out.slice(0, span.start) + ' '.repeat(span.end - span.start) + out.slice(span.end);
  return out;
}

/** A word's rarity in the corpus's paragraphs (inverse document frequency): what the coverage checks weigh it by. */
const rarity = (index: RetrievalIndex, term: string, df = index.raw.lexical.documentFrequency(term)) => Math.log((index.raw.lexical.size + 1) / (df + 1));

export interface SubjectCoverage {
  /** The question's subject words as written. */
  words: string[];
  /** Those the paper's paragraph that states most of them lacks, as written. */
  missing: string[];
  /** Whether that paragraph states enough of them: every one of one or two, two thirds of more. */
  met: boolean;
}

/**
 * A question that names nothing the facet checks judge ("What is the capital of France?", "Who won the 2018 World
 * Cup?", "What is sintering?") is about its words alone, and such questions are short: `termCoverage` needs three
 * distinctive words and leaves value questions to the facets, so nothing checked them, and the corpus uses most words
 * somewhere (France in a supplier's address, a year in a citation). Its subject words — what is left without the
 * question's frame, prepositions, numbers and filler — must be stated together in one paragraph of the paper (with
 * its title): every one of one or two, two thirds of more, and none that no paper uses. Null when the
 * question names a facet or has no subject word.
 */
export function subjectCoverage(index: RetrievalIndex, analysis: QuestionAnalysis, paperId: string): SubjectCoverage | null {
  if (!unanchored(analysis)) return null;
  const filler = fillerTerms(analysis.body);
  const written = new Map<string, string>();
  for (const w of analysis.body.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [])
    for (const t of plainTerms(w))
      if (!written.has(t) && !QUESTION_FRAME_TERMS.has(t) && !PREPOSITIONS.has(t) && !/^\d/.test(t) && !filler.has(t)) written.set(t, w);
  const words = [...written.keys()];
  if (!words.length) return null;
  const needed = words.length <= 2 ? words.length : Math.ceil((2 * words.length) / 3);
  const titleTerms = new Set(plainTerms(index.papers.get(paperId)?.title ?? ''));
  let best: string[] = words;
  for (const terms of statedTerms(index, paperId, words).inParagraphs) {
    const lacking = words.filter((t) => !terms.has(t) && !titleTerms.has(t));
    if (lacking.length < best.length) best = lacking;
    if (!best.length) break;
  }
  // A word no paper uses (after the spelling correction) is something the corpus does not speak of: the question is
  // about its words alone, so it is not answered ("How do I bake sourdough bread?").
  const unused = words.some((t) => index.raw.lexical.documentFrequency(t) === 0);
  return { words: [...written.values()], missing: best.map((t) => written.get(t)!), met: !unused && words.length - best.length >= needed };
}

/**
 * The share of the question's distinctive words, each weighted by its rarity in the corpus (inverse document
 * frequency), that the paper states anywhere (title or paragraphs) and in its best paragraph, and the rarest ones
 * it lacks, as written.
 */
export function termCoverage(index: RetrievalIndex, analysis: QuestionAnalysis, paperId: string, statedNames: readonly string[] = []): TermCoverage | null {
  // Values and property phrases are left to the facet checks, and so are the material names the paper states in
  // its own notation (a formula written as a family, "Ce1−xSmxO2−δ", is no word the paper need write); a name it
  // does not state stays a distinctive word. The tagger (most of this step) runs only on 3+ words.
  const materialSpans = statedNames.flatMap((w) => {
    const at = analysis.body.indexOf(w);
    return at >= 0 ? [{ start: at, end: at + w.length }] : [];
  });
  const described = blankSpans(analysis.body, [...analysis.quantities, ...analysis.propertySpans, ...materialSpans]);
  const candidates = [...new Set(plainTerms(described))].filter(
    (t) => !QUESTION_FRAME_TERMS.has(t.toLowerCase()) && !PREPOSITIONS.has(t.toLowerCase()) && !/^\d/.test(t),
  );
  const filler = candidates.length < 3 ? null : fillerTerms(described);
  const words = candidates.filter((t) => filler && !filler.has(t));
  if (words.length < 3) return null;
  // A chemical name the paper states as a formula ("manganese sulfate" where the paper writes MnSO4) is found.
  const stated = paperFacets(index, paperId).materials;
  const asFormula = new Set(
    findChemicalNames(analysis.body)
      .filter((c) => stated.has(`f:${formulaKey(c.formula)}`))
      .flatMap((c) => plainTerms(c.text)),
  );
  const weighted: { t: string; w: number }[] = [];
  for (const t of words) {
    const df = index.raw.lexical.documentFrequency(t);
    // A word no paper uses is more often a typo or a spelling the corpus lacks than a sign of another paper (unknown
    // materials are judged by the entity check).
    if (df > 0) weighted.push({ t, w: rarity(index, t, df) });
  }
  const found = statedTerms(
    index,
    paperId,
    weighted.map((x) => x.t),
  );
  const paper = { has: (t: string) => found.inPaper.has(t) || asFormula.has(t) };
  const total = weighted.reduce((sum, x) => sum + x.w, 0);
  const share = (has: (t: string) => boolean) => (total > 0 ? weighted.filter((x) => has(x.t)).reduce((sum, x) => sum + x.w, 0) / total : 1);
  const titleTerms = new Set(plainTerms(index.papers.get(paperId)?.title ?? ''));
  let paragraph = 0;
  for (const terms of found.inParagraphs)
    paragraph = Math.max(
      paragraph,
      share((t) => terms.has(t) || titleTerms.has(t) || asFormula.has(t)),
    );
  const written = new Map<string, string>();
  for (const w of analysis.body.split(/\s+/)) {
    const t = plainTerms(w)[0];
    if (t && !written.has(t)) written.set(t, w.replace(/^[("“]+|[?,.;:)"”]+$/g, ''));
  }
  const missing = weighted.filter((x) => !paper.has(x.t)).sort((a, b) => b.w - a.w);
  return { coverage: share((t) => paper.has(t)), paragraph, words: weighted.length, missing: missing.map((m) => written.get(m.t) ?? m.t) };
}

/** A year the question names ("discovered in 2040", "the 2019 record"): what it dates is part of what is asked. */
const YEAR = /^(?:1[89]|20)\d\d$/;
/** Words of "how many / how much / how long / how often": the question's frame, though the tagger calls them adjectives. */
const HOW_WORDS = new Set(plainTerms('many much long often'));

/**
 * What a question that names a material or property asks beyond them: "How many protons does a uranium atom have?"
 * (protons, atom), "tensile strength of carbon fibre in bicycle frames" (bicycle, frames), "Curie temperature of
 * BaTiO3" (Curie, where the lexicon knows only the temperature). The facet checks judge the names, values and known
 * properties; nothing judged the rest of a value question or of one too short for `termCoverage`, so a paper on
 * uranium compounds "answered" the protons and a calcination the Curie temperature. The words left — without the
 * facets, frame, prepositions, filler and numbers other than years — weighted by rarity, must be stated in one
 * paragraph of the paper (with its title) for at least ASKED_WORDS_STATED of their weight; a word no paper uses
 * weighs most and is never stated. Null for an unanchored question (`subjectCoverage` judges those) or one with no
 * such word.
 */
export function askedWordsCoverage(index: RetrievalIndex, analysis: QuestionAnalysis, paperId: string): SubjectCoverage | null {
  const a = analysis;
  if (unanchored(a) || a.title) return null;
  const described = blankSpans(a.body, [
    ...a.quantities,
    ...a.propertySpans,
    ...findChemicalNames(a.body),
    // A word written with brackets ("oligo(p-phenylene)", "poly(vinylidene fluoride)") is a chemical name in a
    // notation the paper may write otherwise: the material checks' to judge, not a word of the question's own.
    ...[...a.body.matchAll(/[^\s(]*\([^\s)]*\)?[^\s]*/g)]
      .filter((m) => /\p{L}\(|\(\p{L}/u.test(m[0]))
      .map((m) => ({ start: m.index!, end: m.index! + m[0].length })),
    ...a.entityWords.flatMap((w) => {
      const at = a.body.indexOf(w);
      return at >= 0 ? [{ start: at, end: at + w.length }] : [];
    }),
  ]);
  const filler = fillerTerms(a.body);
  const written = new Map<string, string>();
  for (const w of described.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []) {
    // A material named in words ("uranium", "carbon fibre") is the facets' to judge.
    const f = textFacets(w);
    if (f.materials.length || f.formulas.length) continue;
    for (const t of plainTerms(w)) {
      const skip = QUESTION_FRAME_TERMS.has(t) || HOW_WORDS.has(t) || PREPOSITIONS.has(t) || filler.has(t) || (/^\d/.test(t) && !YEAR.test(t));
      if (!written.has(t) && !skip && t.length > 1) written.set(t, w);
    }
  }
  const words = [...written.keys()];
  if (!words.length) return null;
  const weight = new Map(words.map((t) => [t, rarity(index, t)]));
  // Words every paragraph uses weigh nothing; when all do (a corpus of one paper), they weigh alike.
  if (words.every((t) => weight.get(t)! <= 0)) for (const t of words) weight.set(t, 1);
  const total = words.reduce((sum, t) => sum + weight.get(t)!, 0);
  const titleTerms = new Set(plainTerms(index.papers.get(paperId)?.title ?? ''));
  const lackingIn = (has: (t: string) => boolean) => {
    const lacking = words.filter((t) => !has(t) && !titleTerms.has(t));
    return { share: 1 - lacking.reduce((sum, t) => sum + weight.get(t)!, 0) / total, lacking };
  };
  let best = lackingIn(() => false);
  for (const terms of statedTerms(index, paperId, words).inParagraphs) {
    const stated = lackingIn((t) => terms.has(t));
    if (stated.share > best.share) best = stated;
    if (!best.lacking.length) break;
  }
  return { words: [...new Set(written.values())], missing: [...new Set(best.lacking.map((t) => written.get(t)!))], met: best.share >= ASKED_WORDS_STATED };
}

/**
 * Whether `askedWordsCoverage` decides for this question: the reader leans to reading it as outside the field, and
 * it looks like such a question besides — one subject at most, no value stated, no paper sought (a question that
 * describes its paper by a value or by several materials is judged by its facets). On its own a missing word is as
 * often the question's frame ("I need a number for …", "as characterised in the literature") as its subject.
 */
export function leansOffTopic(analysis: QuestionAnalysis): boolean {
  const a = analysis;
  return (
    (a.reading.probabilities['out-of-scope'] ?? 0) >= ASKED_WORDS_OUTSIDE &&
    a.materials.filter((m) => !isElementTerm(m)).length <= 1 &&
    !a.quantities.length &&
    a.intent !== 'which-paper' &&
    a.reading.intent !== 'which-paper'
  );
}
