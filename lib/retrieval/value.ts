import { boundedMemo } from '../common/bounded-memo.ts';
import { type Evidence, paperOf } from '../evidence/model.ts';
import { findProperties } from '../structure/properties.ts';
import { parseQuantities, type Quantity } from '../structure/quantities.ts';
import { splitSentences } from '../structure/sentences.ts';
import { isRowText, rowSegments } from '../ingest/tables.ts';
import { type TermSpan, termSpans, textFacets } from '../structure/terms.ts';
import { materialTerms, quantityFacet, quantityMatch } from './facets.ts';
import type { QuestionAnalysis } from './question.ts';

/** The value a value question asks for, as stated in one evidence item. */
export interface QuantityAnswer {
  text: string;
  dimension: string;
  canonical: number[];
  canonicalUnit: string;
  evidenceId: string;
  /** Where the value stands in the evidence item's text (absent for a value read from a "respectively" list). */
  span?: { start: number; end: number };
  /** How firmly the evidence supports this value over the others it states: what the answer's confidence reads. */
  support?: ValueSupport;
  /** P(this is the value asked for) under the embedder family's value fit (abstention-model.ts); absent without one. */
  confidence?: number;
}

/**
 * What the value extractor saw when it chose: a value its sentence ties closely to the question, far ahead of any
 * other value, and stated again by other items, is more often the right one than a close call read deep down.
 */
export interface ValueSupport {
  /** The chosen value's score (cue, material, condition and property ties, less its item's rank). */
  score: number;
  /** Its lead over the best-scored different value (MARGIN_CAP when the evidence states no other). */
  margin: number;
  /** Other evidence items that state the same value (within SAME_VALUE). */
  agreeing: number;
  /** The rank of the item it was read from among those read (0: the first). */
  rank: number;
  /** Read from the ranking read deeper, its top items stating none (see DEEPER_VALUE_EVIDENCE). */
  deeper: boolean;
}

/** The margin a value has when no other value of the asked dimension competes. */
export const MARGIN_CAP = 6;
/** Values within this share of each other are the same value (a rounding, a unit's conversion). */
const SAME_VALUE = 0.01;

/** How many of the top evidence items the value is looked for in. */
export const VALUE_EVIDENCE = 5;
/**
 * How deep the ranking is read for a value when its top items state none: "What is the Tc of MgB2?" ranks first the
 * paragraphs that discuss MgB2's Tc (its pressure dependence, its phase diagram), and the one that states "39 K" is
 * 14th; answering "no passage states a Tc for MgB2" then refuses what the corpus holds.
 */
export const DEEPER_VALUE_EVIDENCE = 20;

// Words of the question's frame ("what … is reported for …", "for how long was the material …") that say nothing
// about which value is meant.
const FRAME = new Set(
  termSpans('reported value material sample step carried out last long given obtained measured found shown under over after before during between about').map(
    (t) => t.term,
  ),
);

/**
 * The value a value question asks for: among the quantities of the asked dimension in the top evidence, the one
 * its sentence ties most closely to what else the question names.
 * - Each word of the question that is not its frame or the asked property (a material, an operation such as
 *   "dried", a sample such as "cell 1") is a cue, weighed by how rare it is among the evidence's sentences. A
 *   value is tied to a cue when it is the first value of the asked dimension after it ("dried at 120 °C for 2 h
 *   and calcined at 700 °C": 120 °C is the drying temperature), less when it is the nearest one before it.
 * - A condition the question states ("at 550 °C", "under 2 GPa") ties the nearest value before it ("802 mW cm−2
 *   at 550 °C") and, less, the one after.
 * - A sentence naming the question's material (in any spelling) and its property counts as well; the evidence
 *   rank breaks ties.
 */
export function extractValue(evidence: Evidence[], analysis: QuestionAnalysis): QuantityAnswer | null {
  const dimension = analysis.askedDimension;
  if (!dimension) return null;
  const isAsked = (q: Quantity) => q.dimension === dimension;
  const materials = new Set(analysis.materials);
  const words = analysis.entityWords.filter((w) => w.length > 1);
  const sentences = evidence.flatMap((e, rank) => sentencesCached(e.text).map((s) => ({ s, e, rank })));
  const cues = questionCues(analysis);
  // The operations the question names ("dried", "the stirring step").
  const operations = new Set(
    termSpans(analysis.body)
      .filter((t) => cues.has(t.term) && isOperation(analysis.body.slice(t.start, t.end)))
      .map((t) => t.term),
  );
  const df = new Map<string, number>();
  for (const { s } of sentences) for (const c of new Set(s.terms.map((t) => t.term))) if (cues.has(c)) df.set(c, (df.get(c) ?? 0) + 1);
  const weight = (c: string) => (df.has(c) ? Math.log(1 + sentences.length / df.get(c)!) : 0);
  const cueTotal = [...cues].reduce((t, c) => t + weight(c), 0);
  // When the question names a material, a value counts only from an item about it (the material in its text or
  // its paper's title): a power density of another material's cell is no answer, however well it matches.
  const about = new Map<string, boolean>();
  const isAbout = (e: Evidence) => {
    if (materials.size === 0 && words.length === 0) return true;
    if (!about.has(e.id)) {
      const text = `${paperOf(e)?.title ?? ''} ${e.text}`;
      const f = textFacets(text);
      about.set(e.id, [...materialTerms(f.formulas, f.materials)].some((m) => materials.has(m)) || words.some((w) => text.includes(w)));
    }
    return about.get(e.id)!;
  };
  let best: { q: QuantityAnswer; score: number; rank: number } | null = null;
  // Every value scored, for the chosen one's support: how far it leads the others, and who else states it.
  const scored: { canonical: number[]; score: number; evidenceId: string }[] = [];
  const names = (s: ReadSentence) => s.materials.some((m) => materials.has(m)) || words.some((w) => s.about.includes(w));
  for (const [i, { s, e, rank }] of sentences.entries()) {
    const asked = s.quantities.filter(isAsked);
    const candidates = asked.filter((q) => !analysis.quantities.some((x) => x.text === q.text));
    if (candidates.length === 0 || !isAbout(e)) continue;
    // A sentence naming no material goes on about the one the sentence before it names ("… CsOs2O6 with Tc = 3.3 K at
    // ambient pressure. The Tc is raised to 7.6 K at 6 GPa.").
    const before = sentences[i - 1];
    // (A compound of the question, not an element or a word: "lithium" in the sentence before is no LiV3O8.)
    const namesMaterial = names(s) || (s.materials.length === 0 && before?.e === e && before.s.materials.some((m) => materials.has(m) && COMPOUND.test(m)));
    const conditions = analysis.quantities.length ? analysis.quantities.reduce((t, x) => t + quantityMatch(s.facets, x), 0) / analysis.quantities.length : 0;
    // An operation that implies the property ("calcined" for a temperature) stands for the property only when the
    // question names no other operation: "calcined at 500 °C" does not answer "at what temperature was it dried?".
    const properties = findProperties(s.text).filter(
      (p) => analysis.properties.includes(p.key) && (!isOperation(p.text) || operations.size === 0 || operations.has(termSpans(p.text)[0]?.term ?? '')),
    );
    // Where the question's conditions stand in this sentence: quantities of another dimension that match one.
    const conditionAt = s.quantities.filter((q, i) => !isAsked(q) && analysis.quantities.some((x) => quantityMatch([s.facets[i]], x) > 0));
    const listed = respectively(s, candidates, words);
    if (listed) {
      // The sentence pairs materials with values in order: the material asked about takes its value, no other.
      const score = 3 + 2 + 2 * conditions + 1.5 + (properties.length ? 0.5 : 0) - 0.3 * rank;
      scored.push({ canonical: listed.canonical, score, evidenceId: e.id });
      if (!best || score > best.score) best = { q: { ...listed, evidenceId: e.id }, score, rank };
      continue;
    }
    // The material's own cue words, named by the sentence before, tie the values of a sentence going on about it,
    // as words before a value do (half).
    const carried =
      namesMaterial && !names(s)
        ? [...new Set(before.s.terms.map((t) => t.term))].filter((t) => cues.has(t) && words.includes(t)).reduce((x, t) => x + 0.5 * weight(t), 0)
        : 0;
    for (const q of candidates) {
      if (isChangeAmount(s.text, q, properties) || ofAnotherMaterial(s.text, q, materials)) continue;
      const cueScore = cueTotal > 0 ? Math.min(1, (cueTieScore(q, s.text, s.terms, cues, weight, asked) + carried) / cueTotal) : 0;
      const conditionTie = conditionAt.reduce((m, c) => Math.max(m, tieTo(q, c, asked, 'before')), 0);
      const propertyTie = properties.reduce((m, p) => Math.max(m, tieTo(q, p, asked, 'after')), 0);
      // The value the sentence states at the asked condition, not another value the same sentence states at another
      // one ("5.0 K at 2 GPa and 7.6 K at 6 GPa" asked at 6 GPa), weighs as much as the sentence stating the condition.
      const score =
        3 * cueScore + 2 * (namesMaterial ? 1 : 0) + 2 * conditions + 2 * conditionTie + 1.5 * propertyTie + (properties.length ? 0.5 : 0) - 0.3 * rank;
      scored.push({ canonical: q.canonical, score, evidenceId: e.id });
      if (!best || score > best.score)
        best = {
          q: {
            text: q.text,
            dimension: q.dimension,
            canonical: q.canonical,
            canonicalUnit: q.canonicalUnit,
            evidenceId: e.id,
            span: { start: s.start + q.start, end: s.start + q.end },
          },
          score,
          rank,
        };
    }
  }
  const chosen = best as { q: QuantityAnswer; score: number; rank: number } | null;
  return chosen ? { ...chosen.q, support: supportOf(chosen, scored) } : null;
}

/** The chosen value's support among every value scored (see ValueSupport; `deeper` is the caller's to say). */
function supportOf(
  chosen: { q: QuantityAnswer; score: number; rank: number },
  scored: { canonical: number[]; score: number; evidenceId: string }[],
): ValueSupport {
  const same = (a: number[], b: number[]) =>
    a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= Math.max(Math.abs(v), Math.abs(b[i])) * SAME_VALUE + 1e-12);
  let rival = -Infinity;
  const agreeing = new Set<string>();
  for (const x of scored) {
    if (!same(x.canonical, chosen.q.canonical)) rival = Math.max(rival, x.score);
    else if (x.evidenceId !== chosen.q.evidenceId) agreeing.add(x.evidenceId);
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    score: round(chosen.score),
    margin: round(Math.min(MARGIN_CAP, chosen.score - rival)),
    agreeing: agreeing.size,
    rank: chosen.rank,
    deeper: false,
  };
}

// "the change in Tc is only 0.3 K", "a shift of the Tc of 2 K", "ΔTc = 1.2 K": the property's change, not its value.
const CHANGE_OF =
  /(?:\b(?:change|shift|increase|decrease|drop|rise|variation|difference|reduction|enhancement|suppression|jump|gain|loss|spread)s?\s+(?:in|of)\s+(?:the\s+)?|[Δ∆]\s*|\bd)$/i;
/** A verb of change, as a regular expression's source: "increased", "drops", "fell", "was lowered". */
export const CHANGE_VERB =
  '(?:increas|decreas|drop|dropp|ris|rose|risen|grow|grew|declin|shift|rais|lower|reduc|enhanc|suppress|chang|vari|var|fell|fall|push|lift|boost)\\w*';
// "Tc increased by 2 K", "drops by about 0.5 K", "is pushed up about 5 K": a value right after a verb of change, or
// after its "by" ("increased to 39 K" and "decreased from 39 K" state values, and stay).
const CHANGED_BY = new RegExp(
  `\\b${CHANGE_VERB}\\s+(?:(?:up|down)\\s+)?(?:(?:\\w+\\s+){0,2}?by\\s+)?(?:about|only|roughly|approximately|nearly|almost|up to|~|≈)?\\s*$`,
  'i',
);

// Where a sentence joins clauses about different things: "Tantalum shows it below Tc = 4.4 K; in MgB2 it is larger".
const CLAUSE_BREAK = /;|,\s*(?:whereas|while|but|unlike)\b|\bwhereas\b/g;

/**
 * Whether `q` stands in a clause that names other materials and not the one asked about: the sentence names it, but
 * the value is another material's ("Tantalum exhibits a slight negative α below Tc = 4.4 K; what distinguishes this
 * feature in MgB2 …" states no Tc of MgB2).
 */
function ofAnotherMaterial(text: string, q: Quantity, materials: Set<string>): boolean {
  if (materials.size === 0) return false;
  let start = 0;
  let end = text.length;
  for (const m of text.matchAll(CLAUSE_BREAK)) {
    if (m.index + m[0].length <= q.start) start = m.index + m[0].length;
    else if (m.index >= q.end) {
      end = m.index;
      break;
    }
  }
  if (start === 0 && end === text.length) return false;
  const f = textFacets(text.slice(start, end));
  const named = [...materialTerms(f.formulas, f.materials)];
  return named.length > 0 && !named.some((m) => materials.has(m));
}

/**
 * Whether `q` is the amount by which the asked property changes rather than its value: the nearest mention of the
 * property before it is introduced as a change ("the overall change in Tc is only 0.3 K"), or the value follows
 * "by" after a verb of change ("Tc drops by 2 K"). Such a value answers "by how much", never "what is".
 */
function isChangeAmount(text: string, q: Quantity, properties: { start: number; end: number }[]): boolean {
  const before = text.slice(Math.max(0, q.start - 60), q.start);
  if (CHANGED_BY.test(before)) return true;
  const mention = properties.filter((p) => p.end <= q.start).sort((a, b) => b.start - a.start)[0];
  // Only the value the change is stated as ("… is only 0.3 K"): a value further on belongs to what follows
  // ("the rise in Tc (but not up to the maximum of La-2125, i.e. ~78 K)" states La-2125's Tc).
  return !!mention && CHANGE_OF.test(text.slice(Math.max(0, mention.start - 40), mention.start)) && STATED_AS.test(text.slice(mention.end, q.start));
}
const STATED_AS =
  /^\s*(?:(?:of|in|for)\s+(?:the\s+)?[^\s(),;]+(?:\s+[^\s(),;]+){0,2}?\s+)?(?:is|was|were|are|of|by|amounts to|=|:)?\s*(?:only|about|approximately|roughly|nearly|just|~|≈)?\s*$/i;

/**
 * "A and B are superconducting at 32 K and 42 K, respectively": the value in the position the question's material
 * holds among the materials the sentence lists before its values (a list such as "32 and 42 K" split into its
 * values), or null when the sentence does not pair them so.
 */
function respectively(s: ReadSentence, candidates: Quantity[], words: string[]): Omit<QuantityAnswer, 'evidenceId'> | null {
  if (words.length === 0 || !/\brespectively\b/.test(s.text) || candidates.length === 0) return null;
  const list = candidates.length === 1 && candidates[0].kind === 'list' ? candidates[0] : null;
  const values = list
    ? list.values.map((v, i) => ({ text: `${v} ${list.unit}`, canonical: [list.canonical[i]] }))
    : candidates.map((q) => ({ text: q.text, canonical: q.canonical }));
  if (values.length < 2) return null;
  const first = candidates[0].start;
  // The materials named before the values, in order; a spaced-out formula counts once, not as its pieces.
  const formulas = s.terms.filter((t) => t.end <= first && /[A-Z]/.test(t.term) && (/\d/.test(t.term) || /[A-Z].*[A-Z]/.test(t.term)));
  // Pieces of one formula ("Hg 2 (Ba 0.5 Sr 0.5 ) 2 YCu 2 O 8−δ") are one item: only counts and brackets between.
  const items: TermSpan[][] = [];
  for (const t of formulas) {
    const last = items.at(-1);
    const end = last ? Math.max(...last.map((x) => x.end)) : -1;
    if (last && (t.start < end || /^[\s\d.()[\]−–\-+δxyz]*$/.test(s.text.slice(end, t.start)))) last.push(t);
    else items.push([t]);
  }
  // The materials listed together ("A and B", "A, B and C"): the last such run before the values.
  const gap = (a: TermSpan[], b: TermSpan[]) => s.text.slice(Math.max(...a.map((x) => x.end)), b[0].start);
  let run = items.slice(-1);
  for (let i = items.length - 2; i >= 0 && /^\s*(?:,|,?\s*and|,?\s*or)\s*$/.test(gap(items[i], items[i + 1])); i--) run = [items[i], ...run];
  if (run.length !== values.length) return null;
  const compact = (x: string) => x.replace(/\s+/g, '').replace(/[−–]/g, '-');
  const at = run.findIndex((item) => words.some((w) => item.some((t) => compact(w) === compact(t.term))));
  if (at < 0) return null;
  const q = candidates[0];
  return { text: values[at].text, dimension: q.dimension, canonical: values[at].canonical, canonicalUnit: q.canonicalUnit };
}

/** The sum over cue words of the sentence of their weight times how closely `q` is tied to them. */
function cueTieScore(q: Quantity, text: string, terms: TermSpan[], cues: Set<string>, weight: (c: string) => number, asked: Quantity[]): number {
  const best = new Map<string, number>();
  for (const t of terms) {
    if (!cues.has(t.term)) continue;
    // Another operation between the cue and the value ("dried and then calcined at 500 °C") takes the value.
    const between = text.slice(Math.min(t.end, q.end), Math.max(t.start, q.start));
    const verbs = [...between.matchAll(/(?<!\b(?:the|a|an) )\b[a-z]{3,}(?:ed|ing)\b/g)].filter((m) => !cues.has(termSpans(m[0])[0]?.term ?? '')).length;
    best.set(t.term, Math.max(best.get(t.term) ?? 0, tieTo(q, t, asked, 'after') * 0.4 ** verbs));
  }
  let total = 0;
  for (const [c, tie] of best) total += weight(c) * tie;
  return total;
}

/**
 * How closely the value `q` belongs to an anchor (a cue word or a stated condition) in the same sentence: 1 when
 * it is the first value of its dimension on the anchor's preferred side, half when it is the nearest on the other
 * side, a little when both merely share the sentence; fading with distance.
 */
function tieTo(q: Quantity, anchor: { start: number; end: number }, asked: Quantity[], side: 'after' | 'before'): number {
  const after = asked.filter((x) => x.start >= anchor.end).sort((a, b) => a.start - b.start)[0];
  const before = asked.filter((x) => x.end <= anchor.start).sort((a, b) => b.start - a.start)[0];
  const [first, second] = side === 'after' ? [after, before] : [before, after];
  const distance = q.start >= anchor.end ? q.start - anchor.end : anchor.start - q.end;
  const fade = 1 / (1 + Math.max(0, distance) / 80);
  if (first && first.start === q.start) return fade;
  if (second && second.start === q.start) return 0.5 * fade;
  return 0.1;
}

/** The question's cue words: its terms without the frame of the question, the property named and the title. */
export function questionCues(analysis: QuestionAnalysis): Set<string> {
  let body = analysis.body;
  // The asked property is what every candidate sentence states; an operation ("heated", "annealing") that also
  // names a property is what tells the candidates apart, so it stays a cue.
  for (const p of findProperties(body))
    if (!isOperation(p.text) && p.dimension === analysis.askedDimension) body = body.slice(0, p.start) + ' '.repeat(p.end - p.start) + body.slice(p.end);
  for (const q of analysis.quantities) body = body.replace(q.text, ' ');
  return new Set(
    termSpans(body)
      .map((t) => t.term)
      .filter((t) => !FRAME.has(t) && !/^\d+(?:\.\d+)?$/.test(t)),
  );
}

const isOperation = (word: string) => /(?:ed|ing)$/.test(word);
/** A material key naming a compound (two elements or more), not an element alone. */
const COMPOUND = /[A-Z][a-z]?\d*(?:\.\d+)?[^A-Z]*[A-Z]/;

interface ReadSentence {
  text: string;
  /** Offset of the sentence in its item's text. */
  start: number;
  quantities: Quantity[];
  facets: ReturnType<typeof quantityFacet>[];
  materials: string[];
  terms: TermSpan[];
  /** The text whose words say what the sentence is about: itself, or for a table cell its whole row. */
  about: string;
}

/*
 * A table row as its paragraph reads it (lib/ingest/tables.ts): "Cathode: SSC; ASR: 0.094 Ω cm2; Peak power density:
 * 911 mW cm−2 at 750 °C." Each cell is read as a sentence of its own about the row's material, so a question's
 * words and conditions tie the value of their column, not the first value of the row.
 */

function readSentence(text: string, start: number, about: string, rowMaterials: string[] = []): ReadSentence {
  const quantities = parseQuantities(text);
  const f = textFacets(text);
  return {
    text,
    start,
    quantities,
    facets: quantities.map(quantityFacet),
    materials: [...new Set([...materialTerms(f.formulas, f.materials), ...rowMaterials])],
    terms: termSpans(text),
    about,
  };
}

/** Sentences of a text with their quantities, canonical materials and terms (cached: the same paragraphs come back often). */
const sentencesCached: (text: string) => ReadSentence[] = boundedMemo(
  (text: string): ReadSentence[] =>
    splitSentences(text).flatMap((s) => {
      if (!isRowText(s.text)) return [readSentence(s.text, s.start, s.text)];
      const row = readSentence(s.text, s.start, s.text);
      return rowSegments(s.text).map((cell) => readSentence(cell.text, s.start + cell.start, s.text, row.materials));
    }),
  5000,
);
