import { formulaKey, plainTerms, structuredTerms } from './analyze.ts';
import { tidyFormula } from '../structure/formula.ts';
import { normaliseMaterial } from '../structure/materials.ts';
import { reciprocalRankFusion } from './fusion.ts';
import type { Facets, IndexedParagraph, QuantityFacet, RetrievalIndex } from './index.ts';
import type { ScoredId } from './lexical-index.ts';
import { analyseQuestion, type QuestionAnalysis } from './question.ts';
import { rulesReformulator, type Reformulator } from './reformulate.ts';
import { graphKeywordRetrieve, graphRetrieve, tupleHit, type TupleHit, type TupleReranker } from './graph-pipelines.ts';
import type { GraphIndex } from './graph-index.ts';
import { ariaReason, type AriaResult } from '../graph/aria.ts';
import { designReason, detectDesignMode, type DesignMode, type DesignResult } from '../graph/design.ts';
import { parseQuantities, type Quantity } from '../structure/quantities.ts';
import { findProperties } from '../structure/properties.ts';

/**
 * The retrieval pipelines, each selectable by name (see PIPELINES), all returning the same result shape with a
 * step-by-step trace for the UI:
 * - raw-dense: dense vectors over raw paragraphs (the conventional baseline);
 * - raw-qr: query reformulation + hybrid BM25/dense over raw paragraphs;
 * - json-dense: dense vectors over the structured paragraphs, with structured boosts;
 * - json-qr: reformulation + hybrid over the structured paragraphs + structured filters and boosts;
 * - vector: dense over section-merged chunks, k = 8 (method B's VectorRAG);
 * - records: BM25 over the imported structured records with structured boosts.
 */
export const PIPELINES = ['raw-dense', 'raw-qr', 'json-dense', 'json-qr', 'vector', 'records', 'graph', 'graph-keyword', 'aria'] as const;
export type PipelineName = (typeof PIPELINES)[number];

export function isPipelineName(s: string): s is PipelineName {
  return (PIPELINES as readonly string[]).includes(s);
}

export const pipelineDescriptions: Record<PipelineName, string> = {
  'raw-dense': 'Dense embeddings over raw paragraphs (conventional RAG baseline)',
  'raw-qr': 'Query reformulation + hybrid BM25/dense over raw paragraphs',
  'json-dense': 'Dense embeddings over structured paragraphs + structured boosts',
  'json-qr': 'Query reformulation + hybrid over structured paragraphs + filters and boosts',
  vector: 'Dense over section-merged chunks, k = 8 (VectorRAG)',
  records: 'BM25 over imported structured records + structured boosts',
  graph: 'Knowledge-graph tuples: string + canonical retrieval, re-ranking, multi-hop paths (GraphRAG)',
  'graph-keyword': 'Knowledge-graph tuples selected by keyword lemmas (G-RAG)',
  aria: 'Tiered causal reasoning: direct causal paths, else analogues (Sim with F and N), else model-only or abstain',
};

export type ReasonCode = 'no-evidence' | 'no-matching-entity' | 'conditions-not-met' | 'unknown-paper' | 'low-score';

export interface MatchedFacets {
  materials: string[];
  quantities: string[];
  properties: string[];
}

export interface EvidenceHit {
  kind: 'paragraph' | 'chunk' | 'record';
  id: string;
  paperId: string | null;
  doi: string | null;
  /** Paragraphs this evidence covers (a chunk covers several). */
  paragraphIds: string[];
  /** Source ids of those paragraphs (corpus ids such as "mulms-sofc-02:p2"), for gold comparison and links. */
  externalIds: string[];
  section: string | null;
  text: string;
  score: number;
  /** Share of the question's materials, values and properties this evidence states (null: question has none). */
  coverage: number | null;
  matched: MatchedFacets;
}

export interface PaperHit {
  paperId: string | null;
  doi: string | null;
  title: string | null;
  score: number;
  evidenceIds: string[];
}

export interface QuantityAnswer {
  text: string;
  dimension: string;
  canonical: number[];
  canonicalUnit: string;
  evidenceId: string;
}

export interface TraceStep {
  step: string;
  ms: number;
  detail: Record<string, unknown>;
}

export interface Abstention {
  abstain: boolean;
  /** 0–1: how completely the best paper states what the question names (see `decideAbstention`). */
  confidence: number;
  reasons: ReasonCode[];
  explanation: string;
}

export interface RetrievalResult {
  pipeline: PipelineName;
  question: string;
  analysis: QuestionAnalysis;
  papers: PaperHit[];
  evidence: EvidenceHit[];
  value: QuantityAnswer | null;
  abstention: Abstention;
  trace: TraceStep[];
  latencyMs: number;
  /** Graph pipelines: the tuples behind the evidence, best first. */
  tuples?: TupleHit[];
  /** The aria pipeline: chosen tier, grounded concepts, causal paths, analogues with their similarity breakdown. */
  aria?: AriaResult;
  /** The aria pipeline on a forward-prediction or inverse-design question: structured suggestions with evidence. */
  design?: DesignResult;
  /** Graph pipelines: where each paper / paragraph the tuples cite lives, for provenance links. */
  sources?: Record<string, TupleSource>;
}

export interface TupleSource {
  paperId: string;
  paperTitle: string | null;
  /** Paragraph ordinal in its paper (the paper page's #p<ordinal> anchor); null for a paper-level source. */
  ordinal: number | null;
  externalId: string | null;
}

/** How the aria pipeline reads a question: detected from its wording, or forced. */
export const QUESTION_MODES = ['auto', 'explain', 'forward', 'inverse'] as const satisfies readonly ('auto' | 'explain' | DesignMode)[];
export type QuestionMode = (typeof QUESTION_MODES)[number];

export interface RetrieveOptions {
  /** aria only: explain (causal paths / analogues), forward prediction, inverse design, or auto (default). */
  mode?: QuestionMode;
  /** Whether a chat model is configured (the aria pipeline's tier 3 is model-only then, else it abstains). */
  modelConfigured?: boolean;
  /** Evidence items returned (top-k); default 5, 8 for `vector`. */
  k?: number;
  reformulator?: Reformulator;
  /** The graph pipeline's re-ranker: a provider cross-encoder when configured, else the offline one. */
  tupleReranker?: TupleReranker;
}

const CANDIDATES = 100;
/** Confidence below which the system says "not in this corpus" rather than naming a paper. */
export const ABSTAIN_BELOW = 0.5;

export async function retrieve(index: RetrievalIndex, question: string, pipeline: PipelineName, opts: RetrieveOptions = {}): Promise<RetrievalResult> {
  const started = performance.now();
  const trace: TraceStep[] = [];
  const step = async <T>(name: string, fn: () => Promise<T> | T, detail: (r: T) => Record<string, unknown>): Promise<T> => {
    const t = performance.now();
    const r = await fn();
    trace.push({ step: name, ms: round(performance.now() - t), detail: detail(r) });
    return r;
  };
  const analysis = await step('analyse', () => analyseQuestion(question), (a) => ({
    intent: a.intent,
    title: a.title,
    materials: a.materials,
    entityWords: a.entityWords,
    properties: a.properties,
    quantities: a.quantities.map((q) => `${q.text} = ${q.canonical.join('–')} ${q.canonicalUnit}`),
    askedDimension: a.askedDimension,
  }));
  const k = opts.k ?? (pipeline === 'vector' ? 8 : 5);
  const ctx: Ctx = { index, analysis, reformulator: opts.reformulator ?? rulesReformulator, tupleReranker: opts.tupleReranker, step, k };

  let ranked: Ranked;
  switch (pipeline) {
    case 'raw-dense':
      ranked = await denseParagraphs(ctx, 'raw', question, false);
      break;
    case 'json-dense':
      ranked = await denseParagraphs(ctx, 'json', question, true);
      break;
    case 'raw-qr':
      ranked = await reformulatedParagraphs(ctx, 'raw');
      break;
    case 'json-qr':
      ranked = await reformulatedParagraphs(ctx, 'json');
      break;
    case 'vector':
      ranked = await vectorChunks(ctx, question);
      break;
    case 'records':
      ranked = await structuredRecords(ctx);
      break;
    case 'graph':
    case 'graph-keyword':
      ranked = await graphTuples(ctx, pipeline);
      break;
    case 'aria':
      ranked = await ariaTuples(ctx, opts.modelConfigured ?? false, opts.mode ?? 'auto');
      break;
  }
  const papers = await step('aggregate-papers', () => aggregatePapers(index, ranked.evidence), (p) => ({ papers: p.slice(0, 5).map((x) => ({ paper: x.title ?? x.doi ?? x.paperId, score: round(x.score, 4) })) }));
  const evidence = ranked.evidence.slice(0, k);
  const value = analysis.intent === 'value' ? await step('extract-value', () => extractValue(evidence.slice(0, 3), analysis), (v) => ({ value: v?.text ?? null })) : null;
  const abstention = await step(
    'abstention',
    () =>
      ranked.design?.tier === 3
        ? { abstain: true, confidence: 0, reasons: ['no-evidence' as ReasonCode], explanation: `${ranked.design.explanation}: ${ranked.design.modelOnly ? 'only the model could answer (tier 3)' : 'no model is configured (tier 3)'}` }
        : ranked.design
          ? { abstain: false, confidence: ranked.design.tier === 1 ? 1 : 0.6, reasons: [], explanation: `tier ${ranked.design.tier}: ${ranked.design.explanation}` }
          : ranked.aria?.tier === 3
            ? { abstain: true, confidence: 0, reasons: ['no-evidence' as ReasonCode], explanation: ranked.aria.modelOnly ? 'no causal path or analogue in the graph: only the model could answer (tier 3)' : 'no causal path or analogue in the graph, and no model is configured (tier 3)' }
            : decideAbstention(index, analysis, papers, ranked),
    (a) => ({ ...a }),
  );
  return { pipeline, question, analysis, papers: papers.slice(0, 10), evidence, value, abstention, trace, latencyMs: round(performance.now() - started), ...(ranked.tuples ? { tuples: ranked.tuples.slice(0, 50) } : {}), ...(ranked.aria ? { aria: ranked.aria } : {}), ...(ranked.design ? { design: ranked.design } : {}), ...(ranked.tuples ? { sources: tupleSources(index, ranked.tuples, ranked.design) } : {}) };
}

interface Ctx {
  index: RetrievalIndex;
  analysis: QuestionAnalysis;
  reformulator: Reformulator;
  tupleReranker?: TupleReranker;
  k: number;
  step: <T>(name: string, fn: () => Promise<T> | T, detail: (r: T) => Record<string, unknown>) => Promise<T>;
}

interface Ranked {
  evidence: EvidenceHit[];
  /** Facets of the records retrieved (records pipeline), for the abstention decision. */
  recordFacets?: Map<string, Facets>;
  tuples?: TupleHit[];
  aria?: AriaResult;
  design?: DesignResult;
  /** A quoted title was given and matched (or not) a paper in the corpus. */
  titleMatched?: boolean | null;
}

// ---------------------------------------------------------------------------------------------------------
// Paragraph pipelines

async function denseParagraphs(ctx: Ctx, space: 'raw' | 'json', text: string, boosts: boolean): Promise<Ranked> {
  const hits = await ctx.step(`dense-${space}`, () => denseSearch(ctx, space, text), (h) => ({ candidates: h.length, top: topIds(ctx, h) }));
  const final = boosts ? await ctx.step('structured-boosts', () => facetRerank(ctx, hits), (h) => ({ top: topIds(ctx, h) })) : hits;
  return { evidence: final.map((h) => paragraphEvidence(ctx, h)) };
}

async function reformulatedParagraphs(ctx: Ctx, space: 'raw' | 'json'): Promise<Ranked> {
  const { analysis, reformulator } = ctx;
  const optimised = await ctx.step(
    'optimise',
    async () => {
      try {
        return { ...(await reformulator.optimise(analysis.question, analysis)), by: reformulator.id, error: null as string | null };
      } catch (error) {
        return { ...(await rulesReformulator.optimise(analysis.question, analysis)), by: 'rules', error: `model failed, rules used: ${(error as Error).message}` };
      }
    },
    (o) => ({ query: o.query, keywords: o.keywords, removed: o.removed, by: o.by, ...(o.error ? { error: o.error } : {}) }),
  );
  const titlePaper = analysis.title ? await ctx.step('title-filter', () => matchTitle(ctx, analysis.title!), (t) => ({ title: analysis.title, paper: t ? ctx.index.papers.get(t)?.title : null })) : null;
  const filter = titlePaper ? (id: string) => ctx.index.paragraphs.get(id)?.paperId === titlePaper : undefined;

  const first = await ctx.step(`hybrid-${space}`, () => hybridSearch(ctx, space, optimised.query, filter), (h) => ({ candidates: h.length, top: topIds(ctx, h) }));
  let merged = space === 'json' ? facetRerank(ctx, first) : first;
  const check = await ctx.step('sufficiency', () => sufficiency(ctx, merged), (s) => ({ ...s }));
  if (!check.sufficient) {
    const subs = await ctx.step(
      'decompose',
      async () => {
        try {
          return { queries: await reformulator.decompose(analysis.question, analysis), by: reformulator.id, error: null as string | null };
        } catch (error) {
          return { queries: await rulesReformulator.decompose(analysis.question, analysis), by: 'rules', error: `model failed, rules used: ${(error as Error).message}` };
        }
      },
      (d) => ({ subQueries: d.queries, by: d.by, ...(d.error ? { error: d.error } : {}) }),
    );
    if (subs.queries.length > 0) {
      const lists: { hits: ScoredId[] }[] = [{ hits: first }];
      const optimisedSubs = await Promise.all(subs.queries.map(async (q) => (await rulesReformulator.optimise(q, analyseQuestion(q))).query));
      const subHits = await ctx.step('sub-queries', () => hybridSearchMany(ctx, space, optimisedSubs, filter), (hs) => ({
        queries: optimisedSubs,
        top: hs.map((h) => topIds(ctx, h)),
      }));
      for (const hits of subHits) lists.push({ hits });
      const fused = await ctx.step('merge', () => reciprocalRankFusion(lists).slice(0, CANDIDATES), (h) => ({ lists: lists.length, top: topIds(ctx, h) }));
      merged = space === 'json' ? facetRerank(ctx, fused) : fused;
      await ctx.step('sufficiency-after-merge', () => sufficiency(ctx, merged), (s) => ({ ...s }));
    }
  }
  if (space === 'json') await ctx.step('structured-boosts', () => merged, (h) => ({ top: topIds(ctx, h) }));
  return { evidence: merged.map((h) => paragraphEvidence(ctx, h)), titleMatched: analysis.title ? titlePaper !== null : null };
}

async function denseSearch(ctx: Ctx, space: 'raw' | 'json', text: string, filter?: (id: string) => boolean): Promise<ScoredId[]> {
  const [v] = await ctx.index.embedder.embed([text]);
  return ctx.index[space].dense.query(v, CANDIDATES, filter);
}

async function hybridSearch(ctx: Ctx, space: 'raw' | 'json', text: string, filter?: (id: string) => boolean): Promise<ScoredId[]> {
  return (await hybridSearchMany(ctx, space, [text], filter))[0];
}

/** BM25 and dense retrieval for each text, fused 1:1 by reciprocal rank; dense vectors scanned once for all texts. */
async function hybridSearchMany(ctx: Ctx, space: 'raw' | 'json', texts: string[], filter?: (id: string) => boolean): Promise<ScoredId[][]> {
  const vectors = await ctx.index.embedder.embed(texts);
  const dense = ctx.index[space].dense.queryMany(vectors, CANDIDATES, filter);
  return texts.map((text, i) => {
    const terms = space === 'raw' ? plainTerms(text) : structuredTerms(text);
    const lexical = ctx.index[space].lexical.query(terms, { limit: CANDIDATES, filter });
    return reciprocalRankFusion([{ hits: lexical }, { hits: dense[i] }]).slice(0, CANDIDATES);
  });
}

function matchTitle(ctx: Ctx, title: string): string | null {
  const terms = plainTerms(title);
  const best = ctx.index.titles.query(terms, { limit: 3 })[0];
  if (!best) return null;
  const paper = ctx.index.papers.get(best.id)!;
  const have = new Set(paper.titleTerms);
  const shared = terms.filter((t) => have.has(t)).length;
  // Most of the quoted title's words, and most of the paper title's, must agree.
  return shared / Math.max(terms.length, 1) >= 0.6 && shared / Math.max(have.size, 1) >= 0.5 ? best.id : null;
}

// ---------------------------------------------------------------------------------------------------------
// Structured facets: coverage, boosts, sufficiency

const GENERIC_PROPERTIES = new Set(['temperature', 'duration', 'pressure']);

const closeTo = (a: number, b: number, dimension: string) =>
  Math.abs(a - b) <= Math.max(Math.abs(a), Math.abs(b)) * 0.005 + (dimension === 'temperature' ? 0.6 : 0) + 1e-12;

/**
 * How well stated quantities meet a question's quantity: 1 when a stated value equals it in canonical units
 * (a range's ends for a range), ½ when it only falls inside a stated range or the ranges overlap, else 0.
 */
export function quantityMatch(have: QuantityFacet[], q: Quantity): number {
  let best = 0;
  const qlo = Math.min(...q.canonical);
  const qhi = Math.max(...q.canonical);
  for (const h of have) {
    if (h.dimension !== q.dimension) continue;
    const lo = Math.min(...h.values);
    const hi = Math.max(...h.values);
    if (q.kind === 'range') {
      if (h.range && closeTo(qlo, lo, q.dimension) && closeTo(qhi, hi, q.dimension)) return 1;
      if (lo <= qhi && hi >= qlo) best = 0.5;
    } else {
      for (const v of q.canonical) {
        if (h.values.some((x) => closeTo(v, x, q.dimension))) return 1;
        if (h.range && v >= lo && v <= hi) best = 0.5;
      }
    }
  }
  return best;
}

const paperFacetCache = new WeakMap<RetrievalIndex, Map<string, Facets>>();
function paperFacets(index: RetrievalIndex, paperId: string): Facets {
  let cache = paperFacetCache.get(index);
  if (!cache) paperFacetCache.set(index, (cache = new Map()));
  let f = cache.get(paperId);
  if (!f) {
    f = { materials: new Set(), properties: new Set(), quantities: [] };
    for (const pid of index.papers.get(paperId)?.paragraphIds ?? []) {
      const p = index.paragraphs.get(pid)!;
      for (const m of p.facets.materials) f.materials.add(m);
      for (const x of p.facets.properties) f.properties.add(x);
      f.quantities.push(...p.facets.quantities);
    }
    cache.set(paperId, f);
  }
  return f;
}

const titleCache = new WeakMap<RetrievalIndex, Map<string, string[]>>();
/** Canonical materials named in a paper's title, read once per paper rather than on every question. */
function titleMaterials(index: RetrievalIndex, paperId: string): string[] {
  let cache = titleCache.get(index);
  if (!cache) titleCache.set(index, (cache = new Map()));
  let m = cache.get(paperId);
  if (!m) {
    const title = index.papers.get(paperId)?.title;
    m = title ? analyseQuestion(title).materials : [];
    cache.set(paperId, m);
  }
  return m;
}

/** Which of the question's facets `facets` states, and the weighted share (materials and values 1, properties ½). */
export function facetCoverage(analysis: QuestionAnalysis, facets: Facets, fallback?: Facets): { coverage: number | null; matched: MatchedFacets } {
  let total = 0;
  let got = 0;
  const matched: MatchedFacets = { materials: [], quantities: [], properties: [] };
  for (const m of analysis.materials) {
    total += 1;
    if (facets.materials.has(m)) {
      got += 1;
      matched.materials.push(m);
    } else if (fallback?.materials.has(m)) got += 0.5;
  }
  for (const q of analysis.quantities) {
    total += 1;
    const grade = quantityMatch(facets.quantities, q);
    if (grade > 0) {
      got += grade;
      matched.quantities.push(q.text);
    } else if (fallback) got += 0.5 * quantityMatch(fallback.quantities, q);
  }
  for (const p of analysis.properties) {
    if (GENERIC_PROPERTIES.has(p)) continue;
    total += 0.5;
    if (facets.properties.has(p)) {
      got += 0.5;
      matched.properties.push(p);
    }
  }
  return { coverage: total > 0 ? got / total : null, matched };
}

/**
 * Structured boosts: fused score × (1 + 2·coverage) × 1.2 for synthesis paragraphs when the question is about
 * making something. Coverage is the mean of the paragraph's coverage (paper-level facts count half) and its best
 * sentence's: a claim stated in one sentence beats the same words scattered over a paragraph.
 */
function facetRerank(ctx: Ctx, hits: ScoredId[]): ScoredId[] {
  return hits
    .map((h) => {
      const p = ctx.index.paragraphs.get(h.id)!;
      const coverage = combinedCoverage(ctx, p);
      const role = ctx.analysis.aboutSynthesis && p.role === 'synthesis' ? 1.2 : 1;
      return { id: h.id, score: h.score * (1 + 2 * (coverage ?? 0)) * role };
    })
    .sort((a, b) => b.score - a.score);
}

function combinedCoverage(ctx: Ctx, p: IndexedParagraph): number | null {
  const { coverage } = facetCoverage(ctx.analysis, p.facets, paperFacets(ctx.index, p.paperId));
  if (coverage === null) return null;
  let best = 0;
  for (const s of p.sentences) best = Math.max(best, facetCoverage(ctx.analysis, s).coverage ?? 0);
  return (coverage + best) / 2;
}

/**
 * Step 2 of reformulation, the sufficiency check on a retrieval: sufficient when the best paragraph states at
 * least ¾ of the question's materials, values and properties (weighted as in `facetCoverage`) and either
 * states all of them or its paper leads the next paper by ≥ 10 % of its score. A question with no such facets
 * falls back to keyword coverage: the share of its query terms in the best paragraph.
 */
function sufficiency(ctx: Ctx, hits: ScoredId[]): { sufficient: boolean; coverage: number; margin: number; reason: string } {
  if (hits.length === 0) return { sufficient: false, coverage: 0, margin: 0, reason: 'no hits' };
  const top = ctx.index.paragraphs.get(hits[0].id)!;
  let { coverage } = facetCoverage(ctx.analysis, top.facets);
  if (coverage === null) {
    const q = new Set(plainTerms(ctx.analysis.body));
    const have = new Set(plainTerms(top.text));
    coverage = q.size ? [...q].filter((t) => have.has(t)).length / q.size : 0;
  }
  const byPaper = new Map<string, number>();
  for (const h of hits) {
    const pid = ctx.index.paragraphs.get(h.id)!.paperId;
    byPaper.set(pid, Math.max(byPaper.get(pid) ?? 0, h.score));
  }
  const [s1 = 0, s2 = 0] = [...byPaper.values()].sort((a, b) => b - a);
  const margin = s1 > 0 ? (s1 - s2) / s1 : 0;
  const sufficient = coverage >= 0.75 && (coverage >= 0.999 || margin >= 0.1);
  return {
    sufficient,
    coverage: round(coverage, 3),
    margin: round(margin, 3),
    reason: sufficient ? 'best passage covers the question' : coverage < 0.75 ? 'best passage misses part of the question' : 'no clear best paper',
  };
}

function paragraphEvidence(ctx: Ctx, h: ScoredId): EvidenceHit {
  const p: IndexedParagraph = ctx.index.paragraphs.get(h.id)!;
  const paper = ctx.index.papers.get(p.paperId);
  const { coverage, matched } = facetCoverage(ctx.analysis, p.facets);
  return {
    kind: 'paragraph',
    id: p.id,
    paperId: p.paperId,
    doi: paper?.doi ?? null,
    paragraphIds: [p.id],
    externalIds: p.externalId ? [p.externalId] : [],
    section: p.section,
    text: p.text,
    score: h.score,
    coverage,
    matched,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Chunks and records

async function vectorChunks(ctx: Ctx, question: string): Promise<Ranked> {
  const [v] = await ctx.index.embedder.embed([question]);
  const hits = await ctx.step('dense-chunks', () => ctx.index.chunkDense.query(v, ctx.k), (h) => ({ chunks: h.length }));
  return {
    evidence: hits.map((h) => {
      const c = ctx.index.chunks.get(h.id)!;
      const paras = c.paragraphIds.map((id) => ctx.index.paragraphs.get(id)!);
      const merged: Facets = { materials: new Set(paras.flatMap((p) => [...p.facets.materials])), properties: new Set(paras.flatMap((p) => [...p.facets.properties])), quantities: paras.flatMap((p) => p.facets.quantities) };
      const { coverage, matched } = facetCoverage(ctx.analysis, merged);
      return {
        kind: 'chunk' as const,
        id: c.id,
        paperId: c.paperId,
        doi: ctx.index.papers.get(c.paperId)?.doi ?? null,
        paragraphIds: c.paragraphIds,
        externalIds: paras.map((p) => p.externalId).filter((x): x is string => !!x),
        section: c.section,
        text: c.text,
        score: h.score,
        coverage,
        matched,
      };
    }),
  };
}

async function structuredRecords(ctx: Ctx): Promise<Ranked> {
  const optimised = await rulesReformulator.optimise(ctx.analysis.question, ctx.analysis);
  const recordIndex = await ctx.index.records.get();
  const records = recordIndex.records;
  const lexical = await ctx.step('bm25-records', () => recordIndex.lexical.query(structuredTerms(optimised.query), { limit: CANDIDATES }), (h) => ({ candidates: h.length }));
  const reranked = await ctx.step(
    'structured-boosts',
    () =>
      lexical
        .map((h) => ({ id: h.id, score: h.score * (1 + 2 * (facetCoverage(ctx.analysis, records.get(h.id)!.facets).coverage ?? 0)) }))
        .sort((a, b) => b.score - a.score),
    (h) => ({ top: h.slice(0, 5).map((x) => records.get(x.id)!.title) }),
  );
  return {
    recordFacets: new Map(reranked.map((h) => [h.id, records.get(h.id)!.facets])),
    evidence: reranked.map((h) => {
      const r = records.get(h.id)!;
      const { coverage, matched } = facetCoverage(ctx.analysis, r.facets);
      return { kind: 'record' as const, id: r.id, paperId: r.paperId, doi: r.doi, paragraphIds: [], externalIds: [], section: r.kind, text: r.text, score: h.score, coverage, matched };
    }),
  };
}

/**
 * Graph pipelines: tuples are retrieved and ranked (graph-pipelines.ts); their provenance turns them into
 * paragraph evidence, a paragraph scoring as its best tuple (+ 0.05 per further tuple), so papers, values and
 * abstention work exactly as for the other pipelines.
 */
async function graphTuples(ctx: Ctx, pipeline: 'graph' | 'graph-keyword'): Promise<Ranked> {
  const graph = await ctx.step('load-graph', () => ctx.index.graph.get(), (g) => ({ tuples: g.tuples.size, entities: g.entities.length, buildSeconds: round(g.buildSeconds, 2) }));
  let hits: TupleHit[];
  if (pipeline === 'graph') {
    const optimised = await rulesReformulator.optimise(ctx.analysis.question, ctx.analysis);
    hits = await graphRetrieve(graph, ctx.analysis, optimised.query, (t) => ctx.index.embedder.embed(t), ctx.step, ctx.tupleReranker);
  } else {
    const r = await ctx.step('keyword-selection', () => graphKeywordRetrieve(graph, ctx.analysis.body), (x) => ({ keywords: x.keywords, tuples: x.hits.length }));
    hits = r.hits;
  }
  return { evidence: tupleEvidence(ctx, hits, 0.05).evidence, tuples: hits };
}

async function ariaTuples(ctx: Ctx, modelConfigured: boolean, mode: QuestionMode): Promise<Ranked> {
  const graph = await ctx.step('load-graph', () => ctx.index.graph.get(), (g) => ({ tuples: g.tuples.size, entities: g.entities.length }));
  const designMode = mode === 'forward' || mode === 'inverse' ? mode : mode === 'auto' ? detectDesignMode(ctx.analysis) : null;
  if (designMode) return designTuples(ctx, graph, designMode, modelConfigured);
  const aria = await ctx.step('aria', () => ariaReason(graph, ctx.analysis, (t) => ctx.index.embedder.embed(t), { modelConfigured }), (a) => ({
    tier: a.tier,
    grounded: a.grounded.map((g) => g.label),
    paths: a.paths.slice(0, 5).map((p) => p.tuples.map((t) => t.text).join(' → ')),
    analogues: a.analogues.map((x) => ({ label: x.label, sim: round(x.sim, 3), cos: round(x.cos, 3), contextOverlap: round(x.contextOverlap, 2), F: x.F, N: round(x.N, 3), stance: x.stance })),
    rejected: a.rejected.map((x) => ({ label: x.label, reason: x.reason, sim: round(x.sim, 3), F: x.F, N: round(x.N, 3) })),
  }));
  const hits: TupleHit[] = [];
  for (const p of aria.paths) for (const t of p.tuples) hits.push(tupleHit(graph.tuples.get(t.id)!, 1 - 0.1 * p.tuples.length, true));
  for (const a of aria.analogues) for (const id of a.tupleIds) hits.push(tupleHit(graph.tuples.get(id)!, a.sim, false));
  return { ...tupleEvidence(ctx, hits), aria };
}

/** Forward prediction / inverse design: suggestions and predictions, their tuples as evidence (best first). */
async function designTuples(ctx: Ctx, graph: GraphIndex, mode: DesignMode, modelConfigured: boolean): Promise<Ranked> {
  const design = await ctx.step(`design-${mode}`, () => designReason(graph, ctx.analysis, mode, (t) => ctx.index.embedder.embed(t), { modelConfigured }), (d) => ({
    tier: d.tier,
    grounded: d.grounded.map((g) => g.label),
    targets: d.targets.map((t) => `${t.label} ${t.comparator ?? ''} ${t.value ?? ''} ${t.unit ?? ''}`.trim()),
    conditions: { method: d.conditions.method, quantities: d.conditions.quantities.map((q) => q.text) },
    suggestions: d.suggestions.map((x) => ({ material: x.material.label, value: x.achieved.value, unit: x.achieved.unit, meets: x.meets, N: round(x.N, 3), route: x.route.length })),
    predictions: d.predictions.map((p) => ({ property: p.label, basis: p.basis, estimate: p.estimate, cases: p.cases.length })),
  }));
  const hits: TupleHit[] = [];
  design.suggestions.forEach((s, rank) => {
    const score = 1 - 0.05 * rank;
    hits.push(tupleHit(graph.tuples.get(s.achieved.tupleId)!, score, false));
    for (const r of s.route) hits.push(tupleHit(graph.tuples.get(r.tupleId)!, score - 0.01, false));
  });
  for (const p of design.predictions) {
    const weight = p.basis === 'material' ? 1 : (p.analogue?.sim ?? 0.5);
    for (const c of p.cases) hits.push(tupleHit(graph.tuples.get(c.tupleId)!, weight * (0.5 + 0.5 * c.conditionMatch), false));
  }
  for (const p of design.paths) for (const t of p.tuples) hits.push(tupleHit(graph.tuples.get(t.id)!, 0.5, true));
  return { ...tupleEvidence(ctx, hits), design };
}

/** Paper and paragraph locations of every tuple shown (hits, suggestions' routes, prediction cases). */
function tupleSources(index: RetrievalIndex, hits: TupleHit[], design?: DesignResult): Record<string, TupleSource> {
  const out: Record<string, TupleSource> = {};
  const add = (paperId: string | null, paragraphId: string | null) => {
    const p = paragraphId ? index.paragraphs.get(paragraphId) : undefined;
    if (p && !out[p.id]) out[p.id] = { paperId: p.paperId, paperTitle: index.papers.get(p.paperId)?.title ?? null, ordinal: p.ordinal, externalId: p.externalId };
    if (paperId && !out[paperId] && index.papers.has(paperId)) out[paperId] = { paperId, paperTitle: index.papers.get(paperId)?.title ?? null, ordinal: null, externalId: null };
  };
  for (const h of hits.slice(0, 50)) add(h.paperId, h.paragraphId);
  for (const s of design?.suggestions ?? []) for (const x of [s.achieved, ...s.route]) add(x.paperId, x.paragraphId);
  for (const p of design?.predictions ?? []) for (const c of p.cases) for (const x of [c, ...c.conditions]) add(x.paperId, x.paragraphId);
  return out;
}

/**
 * Paragraph evidence from tuple hits: a paragraph scores as its best tuple, plus `perFurtherTuple` for each further
 * tuple it holds (at most four); the tuples deduplicated, best first.
 */
function tupleEvidence(ctx: Ctx, hits: TupleHit[], perFurtherTuple = 0): { evidence: EvidenceHit[]; tuples: TupleHit[] } {
  const byParagraph = new Map<string, { best: number; n: number }>();
  for (const h of hits) {
    if (!h.paragraphId || !ctx.index.paragraphs.has(h.paragraphId)) continue;
    const cur = byParagraph.get(h.paragraphId) ?? { best: 0, n: 0 };
    byParagraph.set(h.paragraphId, { best: Math.max(cur.best, h.score), n: cur.n + 1 });
  }
  const ranked = [...byParagraph]
    .map(([id, v]) => ({ id, score: v.best + perFurtherTuple * Math.min(v.n - 1, 4) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const best = new Map<string, TupleHit>();
  for (const h of hits) if ((best.get(h.id)?.score ?? -Infinity) < h.score) best.set(h.id, h);
  return { evidence: ranked.map((h) => paragraphEvidence(ctx, h)), tuples: [...best.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)) };
}

// ---------------------------------------------------------------------------------------------------------
// Papers, values, abstention

/** Paper score = its best evidence (+ 0.05 × its second best, which only breaks near-ties): one paragraph that states the claim beats several that each touch part of it. */
function aggregatePapers(index: RetrievalIndex, evidence: EvidenceHit[]): PaperHit[] {
  const byPaper = new Map<string, { hit: PaperHit; scores: number[] }>();
  for (const e of evidence) {
    const key = e.paperId ?? (e.doi ? `doi:${e.doi}` : null);
    if (!key) continue;
    let entry = byPaper.get(key);
    if (!entry) {
      const paper = e.paperId ? index.papers.get(e.paperId) : undefined;
      entry = { hit: { paperId: e.paperId, doi: paper?.doi ?? e.doi, title: paper?.title ?? null, score: 0, evidenceIds: [] }, scores: [] };
      byPaper.set(key, entry);
    }
    entry.scores.push(e.score);
    entry.hit.evidenceIds.push(e.id);
  }
  for (const { hit, scores } of byPaper.values()) {
    scores.sort((a, b) => b - a);
    hit.score = scores[0] + 0.05 * (scores[1] ?? 0);
  }
  return [...byPaper.values()].map((x) => x.hit).sort((a, b) => b.score - a.score);
}

/** The value a value question asks for: a quantity of the asked dimension, nearest to the question's terms. */
function extractValue(evidence: EvidenceHit[], analysis: QuestionAnalysis): QuantityAnswer | null {
  if (!analysis.askedDimension) return null;
  let best: { q: QuantityAnswer; cost: number } | null = null;
  evidence.forEach((e, rank) => {
    const anchors: number[] = [];
    for (const w of analysis.entityWords) {
      for (let i = e.text.indexOf(w); i >= 0; i = e.text.indexOf(w, i + 1)) anchors.push(i);
    }
    for (const p of findProperties(e.text)) if (analysis.properties.includes(p.key)) anchors.push(p.start);
    for (const q of parseQuantitiesCached(e.text)) {
      if (q.dimension !== analysis.askedDimension) continue;
      const distance = anchors.length ? Math.min(...anchors.map((a) => Math.abs(a - q.start))) : 200;
      const cost = rank * 400 + distance;
      if (!best || cost < best.cost) best = { q: { text: q.text, dimension: q.dimension, canonical: q.canonical, canonicalUnit: q.canonicalUnit, evidenceId: e.id }, cost };
    }
  });
  return (best as { q: QuantityAnswer } | null)?.q ?? null;
}

const quantityCache = new Map<string, Quantity[]>();
function parseQuantitiesCached(text: string): Quantity[] {
  let q = quantityCache.get(text);
  if (!q) {
    if (quantityCache.size > 5000) quantityCache.clear();
    q = parseQuantities(text);
    quantityCache.set(text, q);
  }
  return q;
}

/**
 * Whether to say "not in this corpus". Confidence = the share of the question's materials, values and
 * properties that the best paper states anywhere (paragraphs and title), scaled down when the question names
 * materials that appear nowhere in the corpus (× 1 − 0.75 × their share of the material words) or quotes a title
 * no paper has (×0.3). Below
 * ABSTAIN_BELOW the system abstains, with the reasons that applied.
 */
export function decideAbstention(index: RetrievalIndex, analysis: QuestionAnalysis, papers: PaperHit[], ranked: Ranked): Abstention {
  const reasons: ReasonCode[] = [];
  const top = papers[0];
  if (!top) return { abstain: true, confidence: 0, reasons: ['no-evidence'], explanation: 'nothing in the corpus matches the question' };
  const unknown = analysis.entityWords.filter((w) => !entityKnown(index, w));
  let facets: Facets;
  if (top.paperId && index.papers.has(top.paperId)) {
    // For abstention the title also counts as something the paper states.
    const f = paperFacets(index, top.paperId);
    facets = { ...f, materials: new Set([...f.materials, ...titleMaterials(index, top.paperId)]) };
  } else {
    const recs = ranked.evidence.filter((e) => (e.paperId ?? `doi:${e.doi}`) === (top.paperId ?? `doi:${top.doi}`));
    const rf = (id: string) => ranked.recordFacets?.get(id);
    facets = { materials: new Set(recs.flatMap((r) => [...(rf(r.id)?.materials ?? [])])), properties: new Set(), quantities: recs.flatMap((r) => rf(r.id)?.quantities ?? []) };
  }
  const { coverage, matched } = facetCoverage(analysis, facets);
  let confidence = coverage ?? 0.6;
  const missingMaterials = analysis.materials.filter((m) => !matched.materials.includes(m));
  const missingValues = analysis.quantities.filter((q) => !matched.quantities.includes(q.text));
  if (unknown.length > 0 || missingMaterials.length > 0) reasons.push('no-matching-entity');
  if (missingValues.length > 0) reasons.push('conditions-not-met');
  // Scaled by the share of the named materials the corpus lacks: one unknown word among four is not the same
  // as a question about a material nobody in the corpus made.
  if (unknown.length > 0) confidence *= 1 - 0.75 * (unknown.length / analysis.entityWords.length);
  if (ranked.titleMatched === false) {
    reasons.push('unknown-paper');
    confidence *= 0.3;
  }
  const abstain = confidence < ABSTAIN_BELOW;
  if (abstain && reasons.length === 0) reasons.push('low-score');
  const parts: string[] = [];
  if (unknown.length) parts.push(`not in the corpus: ${unknown.join(', ')}`);
  if (missingMaterials.length) parts.push(`best paper does not mention ${missingMaterials.map((m) => m.slice(2)).join(', ')}`);
  if (missingValues.length) parts.push(`best paper states no ${missingValues.map((q) => q.text).join(', ')}`);
  if (ranked.titleMatched === false) parts.push('no paper in the corpus has the quoted title');
  return { abstain, confidence: round(confidence, 3), reasons, explanation: parts.join('; ') || 'the best paper states what the question names' };
}

/**
 * Whether a material word of the question ("NiCo-LDH@HOS", "Ba1−xKxBiO3") occurs in the corpus: as written
 * (after the index's own tokenisation), or through the canonical key of the whole word (formula in Hill order,
 * lexicon entry). Known parts do not make a compound known: "Co/P-N-C" is not in a corpus that only has Co.
 */
function entityKnown(index: RetrievalIndex, word: string): boolean {
  const w = word.replace(/[−–]/g, '-');
  if (index.raw.lexical.documentFrequency(w) > 0) return true;
  const first = plainTerms(word)[0];
  if (first && first.length >= w.length - 1 && index.raw.lexical.documentFrequency(first) > 0) return true;
  const key = formulaKey(tidyFormula(w));
  if (key && index.json.lexical.documentFrequency(`f:${key}`) > 0) return true;
  const lex = normaliseMaterial(word);
  return lex.kind === 'lexicon' && index.json.lexical.documentFrequency(`m:${lex.key}`) > 0;
}

function topIds(ctx: Ctx, hits: ScoredId[]): string[] {
  return hits.slice(0, 3).map((h) => {
    const p = ctx.index.paragraphs.get(h.id);
    return p ? `${p.externalId ?? p.id} (${round(h.score, 4)})` : h.id;
  });
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
