import { boundedMemo } from '../common/bounded-memo.ts';
import type { MatchedFacets } from '../evidence/model.ts';
import { round } from '../common/trace.ts';
import type { Quantity } from '../structure/quantities.ts';
import { findTechniques } from '../structure/techniques.ts';
import { plainTerms } from '../structure/terms.ts';
import type { RetrievalContext } from './context.ts';
import { type Facets, type QuantityFacet, quantityFacet, quantityMatch } from './facets.ts';
import type { RetrievalIndex } from './index.ts';
import type { IndexedParagraph } from './indexed.ts';
import type { PaperHit } from './papers.ts';
import type { ScoredId } from './lexical-index.ts';
import { analyseQuestion, type QuestionAnalysis } from './question.ts';
import { FACET_BOOST, SUFFICIENT_COVERAGE, SUFFICIENT_MARGIN, SYNTHESIS_ROLE_BOOST } from './scoring.ts';

/**
 * Coverage: how completely a paragraph, sentence, record or paper states the question's materials, values and
 * properties. It drives the structured boosts, the sufficiency check of reformulation and abstention.
 */

const GENERIC_PROPERTIES = new Set(['temperature', 'duration', 'pressure']);

/** The properties a question names that say what it is about (not the temperature, time or pressure of a condition). */
export const specificProperties = (analysis: Pick<QuestionAnalysis, 'properties'>): string[] => analysis.properties.filter((p) => !GENERIC_PROPERTIES.has(p));

/**
 * Whether a sentence — or the one before it ("LSCF films were grown on YSZ. They reached 1.1 W cm−2 at 800 °C") —
 * says what the question's value `q` is a value of: it names one of the question's materials or specific
 * properties (a unit that only one property is measured in names that property itself: "the total electrode
 * polarisation was 0.30 Ω cm2" states an area-specific resistance without the words), or it states another of the
 * question's values ("40.2 K at 12.2 GPa": the question's fact, whatever the sentence calls the material).
 */
export function valueContext(analysis: QuestionAnalysis, q: Quantity): (sentences: Facets[], i: number) => boolean {
  const properties = specificProperties(analysis);
  const others = analysis.quantities.filter((o) => o !== q);
  const names = (s: Facets | undefined) =>
    !!s && (analysis.materials.some((m) => s.materials.has(m)) || properties.some((x) => x === q.dimension || s.properties.has(x)));
  return (sentences, i) => names(sentences[i]) || names(sentences[i - 1]) || others.some((o) => quantityMatch(sentences[i].quantities, o) > 0);
}

/** Which of the question's facets `facets` states, and the weighted share (materials and values 1, properties ½). */
export function facetCoverage(analysis: QuestionAnalysis, facets: Facets, fallback?: Facets): { coverage: number | null; matched: MatchedFacets } {
  const matched: MatchedFacets = { materials: [], quantities: [], properties: [] };
  return { coverage: coverageOf(analysis, facets, fallback, matched), matched };
}

/**
 * The share `facetCoverage` gives, noting what matched in `matched` when there is one (ranking asks for the share
 * alone, of every candidate paragraph and each of its sentences).
 */
function coverageOf(analysis: QuestionAnalysis, facets: Facets, fallback: Facets | undefined, matched: MatchedFacets | null): number | null {
  let total = 0;
  let got = 0;
  for (const m of analysis.materials) {
    total += 1;
    if (facets.materials.has(m)) {
      got += 1;
      if (!matched) continue;
      matched.materials.push(m);
      if (analysis.materialNames[m]) matched.names = { ...matched.names, [m]: analysis.materialNames[m] };
    } else if (fallback?.materials.has(m)) got += 0.5;
  }
  for (const q of analysis.quantities) {
    total += 1;
    const grade = quantityMatch(facets.quantities, q);
    if (grade > 0) {
      got += grade;
      matched?.quantities.push(q.text);
    } else if (fallback) got += 0.5 * fallbackMatch(fallback, q);
  }
  for (const p of analysis.properties) {
    if (GENERIC_PROPERTIES.has(p)) continue;
    total += 0.5;
    if (facets.properties.has(p)) {
      got += 0.5;
      matched?.properties.push(p);
    }
  }
  return total > 0 ? got / total : null;
}

/**
 * `quantityMatch` against a paper's facets, once per paper and question value: every candidate paragraph of a paper
 * falls back on the same paper facets (hundreds of values). Kept while both the facets and the question live.
 */
const fallbackMatches = new WeakMap<Facets, WeakMap<Quantity, number>>();
function fallbackMatch(fallback: Facets, q: Quantity): number {
  let byQuantity = fallbackMatches.get(fallback);
  if (!byQuantity) fallbackMatches.set(fallback, (byQuantity = new WeakMap()));
  let grade = byQuantity.get(q);
  if (grade === undefined) byQuantity.set(q, (grade = quantityMatch(fallback.quantities, q)));
  return grade;
}

/**
 * How many papers a per-paper cache keeps by default (see perPaper): every paper of ten times the shared corpus
 * (18,000). What the warm-up fills is about 7 KB a paper (facets, title, techniques), 130 MB at that size, now that
 * the word checks read the postings (statedTerms) instead of keeping each paper's terms.
 */
export const PAPER_CACHE_LIMIT = 20_000;

/**
 * A value derived from one paper, computed once per paper and index (at most `limit` papers kept per index, so
 * memory stays bounded on large corpora: a full cache is emptied).
 */
export function perPaper<T>(compute: (index: RetrievalIndex, paperId: string) => T, limit = PAPER_CACHE_LIMIT): (index: RetrievalIndex, paperId: string) => T {
  const caches = new WeakMap<RetrievalIndex, (paperId: string) => T>();
  return (index, paperId) => {
    let memo = caches.get(index);
    if (!memo) caches.set(index, (memo = boundedMemo((id: string) => compute(index, id), limit)));
    return memo(paperId);
  };
}

/** The union of a paper's paragraph facets. */
export const paperFacets = perPaper((index, paperId): Facets => {
  const f: Facets = { materials: new Set(), properties: new Set(), quantities: [] };
  for (const pid of index.papers.get(paperId)?.paragraphIds ?? []) {
    const p = index.paragraphs.get(pid)!;
    for (const m of p.facets.materials) f.materials.add(m);
    for (const x of p.facets.properties) f.properties.add(x);
    for (const q of p.facets.quantities) f.quantities.push(q);
  }
  return f;
});

/** A paper's title read as a question is: its canonical materials and the values it states, once per paper. */
const titleAnalysis = perPaper((index, paperId): Pick<QuestionAnalysis, 'materials' | 'quantities'> | null => {
  const title = index.papers.get(paperId)?.title;
  return title ? analyseQuestion(title) : null;
});

/** Canonical materials named in a paper's title. */
export const titleMaterials = (index: RetrievalIndex, paperId: string): string[] => titleAnalysis(index, paperId)?.materials ?? [];

/** Values a paper's title states ("Synthesis of sub-10 nm copper sulphide rods …"). */
export const titleQuantities = (index: RetrievalIndex, paperId: string): QuantityFacet[] => titleAnalysis(index, paperId)?.quantities.map(quantityFacet) ?? [];

/** The sentence of a paragraph that states most of the question (its index and coverage), or null when none states any. */
export function bestSentence(analysis: QuestionAnalysis, p: IndexedParagraph): { index: number; coverage: number } | null {
  let best: { index: number; coverage: number } | null = null;
  p.sentences.forEach((s, index) => {
    const coverage = coverageOf(analysis, s, undefined, null) ?? 0;
    if (coverage > 0 && (!best || coverage > best.coverage)) best = { index, coverage };
  });
  return best;
}

/**
 * Mean of the paragraph's coverage (paper-level facts count half) and its best sentence's: a claim stated in
 * one sentence beats the same words scattered over a paragraph.
 */
function combinedCoverage(ctx: RetrievalContext, p: IndexedParagraph): number | null {
  const coverage = coverageOf(ctx.analysis, p.facets, paperFacets(ctx.index, p.paperId), null);
  if (coverage === null) return null;
  let best = 0;
  for (const s of p.sentences) best = Math.max(best, coverageOf(ctx.analysis, s, undefined, null) ?? 0);
  return (coverage + best) / 2;
}

/** How much the question's facets weigh (materials and values 1, specific properties ½), as in `facetCoverage`. */
function facetWeight(analysis: QuestionAnalysis): number {
  return analysis.materials.length + analysis.quantities.length + 0.5 * specificProperties(analysis).length;
}

/**
 * Structured boosts (scoring.ts): fused score × (1 + s·coverage) × SYNTHESIS_ROLE_BOOST for synthesis paragraphs when
 * the question is about making something. s = FACET_BOOST once the question states two facets or more, less below: coverage of a single facet
 * (one material named in passing, "graphene oxide with PEG, PEI and folic acid …") is all-or-nothing and would
 * triple the score of any paragraph naming it over the one the rest of the question's words point to.
 */
export function facetRerank(ctx: RetrievalContext, hits: ScoredId[]): ScoredId[] {
  const strength = FACET_BOOST * Math.min(1, facetWeight(ctx.analysis) / 2);
  return hits
    .map((h) => {
      const p = ctx.index.paragraphs.get(h.id)!;
      const coverage = combinedCoverage(ctx, p);
      const role = ctx.analysis.aboutSynthesis && p.role === 'synthesis' ? SYNTHESIS_ROLE_BOOST : 1;
      return { id: h.id, score: h.score * (1 + strength * (coverage ?? 0)) * role };
    })
    .sort((a, b) => b.score - a.score);
}

/** How far the best paper of a ranking (a paper scoring as its best paragraph) leads the next, as a share of its score. */
export function paperLead(ctx: RetrievalContext, hits: ScoredId[]): number {
  const byPaper = new Map<string, number>();
  for (const h of hits) {
    const pid = ctx.index.paragraphs.get(h.id)!.paperId;
    byPaper.set(pid, Math.max(byPaper.get(pid) ?? 0, h.score));
  }
  const [s1 = 0, s2 = 0] = [...byPaper.values()].sort((a, b) => b - a);
  return s1 > 0 ? (s1 - s2) / s1 : 0;
}

export interface Sufficiency {
  sufficient: boolean;
  coverage: number;
  margin: number;
  reason: string;
}

/**
 * Step 2 of reformulation, the sufficiency check on a retrieval: sufficient when the best paragraph states at
 * least ¾ of the question's materials, values and properties (weighted as in `facetCoverage`) and either
 * states all of them or its paper leads the next paper by ≥ 10 % of its score. A question with no such facets
 * falls back to keyword coverage: the share of its query terms in the best paragraph.
 */
export function sufficiency(ctx: RetrievalContext, hits: ScoredId[]): Sufficiency {
  if (hits.length === 0) return { sufficient: false, coverage: 0, margin: 0, reason: 'no hits' };
  const top = ctx.index.paragraphs.get(hits[0].id)!;
  let { coverage } = facetCoverage(ctx.analysis, top.facets);
  if (coverage === null) {
    const q = new Set(plainTerms(ctx.analysis.body));
    const have = new Set(plainTerms(top.text));
    coverage = q.size ? [...q].filter((t) => have.has(t)).length / q.size : 0;
  }
  const margin = paperLead(ctx, hits);
  const sufficient = coverage >= SUFFICIENT_COVERAGE && (coverage >= 0.999 || margin >= SUFFICIENT_MARGIN);
  return {
    sufficient,
    coverage: round(coverage, 3),
    margin: round(margin, 3),
    reason: sufficient
      ? 'best passage covers the question'
      : coverage < SUFFICIENT_COVERAGE
        ? 'best passage misses part of the question'
        : 'no clear best paper',
  };
}

/** The preparation techniques a paper names anywhere (title or paragraphs). */
export const paperTechniques = perPaper((index, paperId) => new Set(findTechniques(paperText(index, paperId))));

/** A paper's title and paragraphs as one text (not cached: callers cache what they derive from it). */
export function paperText(index: RetrievalIndex, paperId: string): string {
  const paper = index.papers.get(paperId);
  return [paper?.title ?? '', ...(paper?.paragraphIds ?? []).map((id) => index.paragraphs.get(id)?.text ?? '')].join('\n');
}

/**
 * How many of the question's decisive facts (the materials, values and techniques it states) a paper states
 * anywhere (title or paragraphs).
 */
function decisiveFound(index: RetrievalIndex, analysis: QuestionAnalysis, techniques: string[], paperId: string): number {
  const facets = paperFacets(index, paperId);
  const titled = titleMaterials(index, paperId);
  const materials = analysis.materials.filter((m) => facets.materials.has(m) || titled.includes(m)).length;
  const values = analysis.quantities.filter((q) => quantityMatch(facets.quantities, q) > 0 && statesValue(index, analysis, paperId, q)).length;
  const named = paperTechniques(index, paperId);
  return materials + values + techniques.filter((t) => named.has(t)).length;
}

/**
 * Papers re-ordered so that, among the first `window`, one that states every value and technique the question
 * states comes before those that miss some: "0.372 W cm⁻² at 973 K" is decided by the paper reporting 372 mW/cm2
 * at 700 °C, not by a paper about the same cell reporting other figures. Otherwise the order is kept.
 */
export function preferCompletePapers(
  index: RetrievalIndex,
  analysis: QuestionAnalysis,
  papers: PaperHit[],
  states = askedFactsCheck(index, analysis),
  window = 5,
): PaperHit[] {
  const top = papers[0];
  if (analysis.quantities.length + analysis.techniques.length === 0 || !top?.paperId || !index.papers.has(top.paperId)) return papers;
  if (states(top.paperId)) return papers;
  const complete = papers.slice(1, window).find((p) => p.paperId && index.papers.has(p.paperId) && states(p.paperId));
  return complete ? [complete, ...papers.filter((p) => p !== complete)] : papers;
}

/**
 * Whether a paper states every material, value and technique the question states (see `decisiveFound`), remembered
 * per paper for one question: the paper ordering steps ask it of the same papers.
 */
export function askedFactsCheck(index: RetrievalIndex, analysis: QuestionAnalysis): (paperId: string) => boolean {
  const needed = analysis.materials.length + analysis.quantities.length + analysis.techniques.length;
  const known = new Map<string, boolean>();
  return (paperId) => {
    let states = known.get(paperId);
    if (states === undefined) known.set(paperId, (states = decisiveFound(index, analysis, analysis.techniques, paperId) === needed));
    return states;
  };
}

/**
 * Whether a paper states the question's value `q` in a sentence that (or whose preceding sentence) names one of the question's materials
 * or (specific) properties: "Cd2Re2O7 … at 25 K" is not met by the paper on Cd2Re2O7 that mentions 25 K for
 * something else. A material the paper's title names need not be repeated in the sentence when the question
 * names no specific property; any sentence will do when the question names neither materials nor properties.
 */
export function statesValue(index: RetrievalIndex, analysis: QuestionAnalysis, paperId: string, q: QuestionAnalysis['quantities'][number]): boolean {
  const properties = specificProperties(analysis);
  const inTitle = properties.length === 0 && titleMaterials(index, paperId).some((m) => analysis.materials.includes(m));
  const anyWill = analysis.materials.length === 0 && properties.length === 0;
  // A value in the title is a fact of what the whole paper is about.
  if (quantityMatch(titleQuantities(index, paperId), q) > 0) return true;
  const inContext = valueContext(analysis, q);
  for (const pid of index.papers.get(paperId)?.paragraphIds ?? []) {
    const p = index.paragraphs.get(pid)!;
    if (quantityMatch(p.facets.quantities, q) === 0) continue;
    if (anyWill || inTitle) return true;
    if (p.sentences.some((s, i) => quantityMatch(s.quantities, q) > 0 && inContext(p.sentences, i))) return true;
  }
  return false;
}

/**
 * What a paper states in place of the question's value `q`, when it does not state `q` itself: a value of the same
 * dimension in a sentence that names the question's material or property, or that states another of the question's
 * values ("588 mW cm−2 at 500 °C" against a question about 588 at 600 °C). That is a contradiction; a paper that
 * states no such value leaves `q` unverified. Null when there is none.
 */
export function statedInPlace(index: RetrievalIndex, analysis: QuestionAnalysis, paperId: string, q: Quantity): string | null {
  const inContext = valueContext(analysis, q);
  for (const pid of index.papers.get(paperId)?.paragraphIds ?? []) {
    const p = index.paragraphs.get(pid)!;
    if (!p.facets.quantities.some((h) => h.dimension === q.dimension)) continue;
    for (const [i, s] of p.sentences.entries()) {
      const other = s.quantities.find((h) => h.dimension === q.dimension && quantityMatch([h], q) === 0);
      if (other && inContext(p.sentences, i)) return other.text;
    }
  }
  return null;
}
