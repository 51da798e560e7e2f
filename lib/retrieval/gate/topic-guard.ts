import { round, type TraceStep } from '../../common/trace.ts';
import type { Evidence } from '../../evidence/model.ts';
import type { Abstention, ReasonCode } from './abstention.ts';
import type { QuestionAnalysis } from '../question.ts';
import type { QuantityAnswer } from '../value.ts';
import { paperOf } from '../../evidence/model.ts';
import { materialTerms } from '../facets.ts';
import { fillerTerms, GENERIC_PROPERTIES, QUESTION_FRAME_TERMS } from '../question.ts';
import { splitSentences } from '../../structure/sentences.ts';
import { plainTerms, textFacets } from '../../structure/terms.ts';

/**
 * "What is the melting point of gold?", "What is the weather in LSCF?" — a property the lexicon does not know, of (in,
 * for) a material. Retrieval finds
 * sentences about gold and sentences about melting points (of gallium), and a descriptive answer would quote them at
 * the confidence of the paper that holds both. Such a question is answered only where one sentence names the
 * material and every word of the property; otherwise it is refused, saying what is missing. A property the lexicon
 * knows is judged by the abstention's facet checks instead (its synonyms are known there).
 */

/** What the guard reads of a retrieval result (a pipeline's RetrievalResult has this and more, which it keeps). */
export interface GuardedResult {
  analysis: QuestionAnalysis;
  abstention: Abstention;
  evidence: Evidence[];
  value: Pick<QuantityAnswer, 'evidenceId' | 'text'> | null;
  recipes?: unknown;
  trace: TraceStep[];
}

const ASKED =
  /^\s*what\s+(?:is|was|are|were)\s+(?:the\s+|a\s+|an\s+)?(?:typical\s+|reported\s+)?(.{3,60}?)\s+(of|in|for)\s+(?:the\s+|a\s+|an\s+)?(.{1,80}?)\s*\??\s*$/i;
const FRAME = new Set(plainTerms('value values number amount level degree'));

/** The property words a value question asks about, when the lexicon knows no property in it; null otherwise. */
export function unknownPropertyWords(result: Pick<GuardedResult, 'analysis'>): string[] | null {
  const a = result.analysis;
  if (a.intent !== 'value' || a.title || a.properties.length || !a.materials.length || a.quantities.length) return null;
  const m = ASKED.exec(a.body);
  if (!m) return null;
  const words = plainTerms(m[1]).filter((w) => w.length > 1 && !FRAME.has(w) && !/^\d/.test(w));
  return words.length ? words : null;
}

/** Whether some sentence of the evidence names one of the question's materials and every property word. */
function statedTogether(result: Pick<GuardedResult, 'analysis' | 'evidence'>, words: string[]): boolean {
  const materials = new Set(result.analysis.materials);
  for (const e of result.evidence) {
    for (const s of splitSentences(e.text)) {
      const terms = new Set(plainTerms(s.text));
      if (!words.every((w) => terms.has(w))) continue;
      const f = textFacets(s.text);
      if ([...materialTerms(f.formulas, f.materials)].some((k) => materials.has(k))) return true;
    }
  }
  return false;
}

/** The result refused with `explanation` (what no evidence states), and the guard's reading in the trace. */
function refused<R extends GuardedResult>(result: R, explanation: string, detail: Record<string, unknown>, reason: ReasonCode = 'unmatched-terms'): R {
  return {
    ...result,
    abstention: { ...result.abstention, abstain: true, reasons: [reason], explanation, calibrated: 0 },
    trace: [...result.trace, { step: 'off-topic', ms: 0, detail }],
  };
}

/**
 * How sure the question reader must be that a question is out of scope for it to be refused as such: above every
 * question of the dev sets (their highest, 0.84, a telegraphic "Berkovich indentation … thermoplastic"), since the
 * reader reads words, not whether the corpus knows them.
 */
export const OUT_OF_SCOPE_PROBABILITY = 0.9;

const DEGREE = new Set(plainTerms('highest lowest best worst largest smallest maximum minimum record top typical usual reported used obtained measured'));

/** The share of a described value's words its paper must lack for the description to be of something else. */
const LACKING_SHARE = 0.4;

/**
 * "What annealing temperature was used for the perovskite films in the highest-efficiency solar cell?" names no
 * material, value or known property besides the one asked: what it is about is only in its words. A value is an
 * answer only from a paper whose title or paragraph holds every one of them; the words it lacks are what is missing.
 */
function wordsTheValueLacks(result: GuardedResult): string[] | null {
  const a = result.analysis;
  if (a.intent !== 'value' || a.title || a.materials.length || a.quantities.length || !result.value) return null;
  const item = result.evidence.find((e) => e.id === result.value!.evidenceId);
  if (!item) return null;
  const inProperty = new Set(a.propertySpans.flatMap((s) => plainTerms(a.body.slice(s.start, s.end))));
  const filler = fillerTerms(a.body);
  const words = [...new Set(plainTerms(a.body))].filter(
    // Single words: a hyphenated compound ("highest-efficiency") is judged by its parts.
    (w) => w.length > 3 && /^[a-z]+$/.test(w) && !QUESTION_FRAME_TERMS.has(w) && !filler.has(w) && !inProperty.has(w) && !DEGREE.has(w),
  );
  if (words.length < 2) return null;
  // Read in every retrieved passage of the value's paper, not its one sentence; and a word or two the paper does not
  // use ("solar cells" for its "photovoltaic devices") is no absence: the value's paper must lack LACKING_SHARE of them.
  const samePaper = result.evidence.filter((e) => e.paperId === item.paperId);
  const stated = new Set(plainTerms([paperOf(item)?.title ?? '', ...samePaper.map((e) => e.text)].join('\n')));
  const lacking = words.filter((w) => !stated.has(w));
  // Said as the question writes them ("absorber", not the term "absorb").
  const written = (term: string) => a.body.match(/[A-Za-z]+/g)?.find((t) => plainTerms(t)[0] === term) ?? term;
  return lacking.length >= LACKING_SHARE * words.length ? lacking.map(written) : null;
}

/**
 * "What is the Curie temperature of BaTiO3?": a property the lexicon knows only by its dimension (a temperature, a
 * time), made specific by the word before it. Any temperature of BaTiO3 would otherwise answer it (a calcination at
 * 700 °C). Returns that word as written, when the question has one that is no frame, degree or material word.
 */
export function qualifierOfGeneric(analysis: QuestionAnalysis): string | null {
  const a = analysis;
  if (a.intent !== 'value' || !a.properties.length || !a.properties.every((p) => GENERIC_PROPERTIES.has(p)) || !a.propertySpans.length) return null;
  const before = /([\p{L}][\p{L}'’-]*)\s+$/u.exec(a.body.slice(0, a.propertySpans[0].start))?.[1];
  if (!before || before.length < 4) return null;
  const f = textFacets(before);
  const term = plainTerms(before)[0];
  if (!term || f.materials.length || f.formulas.length || QUESTION_FRAME_TERMS.has(term) || DEGREE.has(term) || fillerTerms(a.body).has(term)) return null;
  return before;
}

/** Past forms of the irregular verbs of lab work, by root: "ground in an agate mortar" states a grinding time. */
const IRREGULAR: Record<string, string> = { grind: 'ground', spin: 'spun', freez: 'frozen', shak: 'shaken', melt: 'molten' };

/** Whether a text names the word in any of its forms ("calcination" / "calcined", "Néel" / "Neel"), by its root. */
function namesWord(text: string, word: string): boolean {
  const plain = (t: string) => t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const root = plain(word)
    .replace(/(?:ation|ing|ed|ion|s)$/, '')
    .replace(/[yie]$/, '');
  const said = plain(text);
  // A root too short to tell ("dr" of "drying") is not checked.
  return root.length < 4 || said.includes(root) || (root in IRREGULAR && said.includes(IRREGULAR[root]));
}

/**
 * The result refused when it asks an unknown property of a material no sentence states it for, or a value of
 * something described only in words the value's paper lacks; else unchanged.
 */
export function guardOffTopic<R extends GuardedResult>(result: R): R {
  if (result.recipes) return result;
  // A question the reader reads as outside the field ("How many protons does a uranium atom have?") is refused as
  // such, whatever sentences retrieval found for its words (and when it found none, that is why).
  const outside = result.analysis.reading?.probabilities['out-of-scope'] ?? 0;
  if (outside >= OUT_OF_SCOPE_PROBABILITY)
    return refused(
      result,
      `the question reads as one about something outside the materials literature held here (question reader: ${Math.round(outside * 100)} %)`,
      { outOfScope: round(outside, 3) },
      'out-of-scope',
    );
  if (result.abstention.abstain) return result;
  const words = unknownPropertyWords(result);
  if (words && !statedTogether(result, words)) {
    const asked = ASKED.exec(result.analysis.body)!;
    const [, what, joined, of] = asked;
    return refused(result, `no retrieved sentence states the ${what.trim()} ${joined.toLowerCase()} ${of.trim()}`, {
      asked: what.trim(),
      of: of.trim(),
      words,
    });
  }
  const qualifier = qualifierOfGeneric(result.analysis);
  const valueItem = qualifier && result.value ? result.evidence.find((e) => e.id === result.value!.evidenceId) : undefined;
  if (qualifier && valueItem && !namesWord(`${paperOf(valueItem)?.title ?? ''}\n${valueItem.text}`, qualifier)) {
    const span = result.analysis.propertySpans[0];
    const asked = `${qualifier} ${result.analysis.body.slice(span.start, span.end)}`;
    return refused(result, `the passage the value comes from states no ${asked} (it states ${result.value!.text} of another kind)`, {
      qualifier,
      value: result.value!.text,
    });
  }
  const lacking = wordsTheValueLacks(result);
  if (lacking) return refused(result, `the paper the value comes from never mentions ${lacking.join(', ')}`, { lacking });
  return result;
}
