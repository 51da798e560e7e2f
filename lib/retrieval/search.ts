import { embedQueries } from '../embedding/embedder.ts';
import { plainTerms, structuredTerms, textFacets } from '../structure/terms.ts';
import { familyExpansions, mixedNames } from './gate/material-match.ts';
import { CANDIDATES, type RetrievalContext, topIds } from './context.ts';
import { facetRerank, paperLead, sufficiency } from './coverage.ts';
import { reciprocalRankFusion } from './fusion.ts';
import type { ScoredId } from './lexical-index.ts';
import { analyseQuestion } from './question.ts';
import { type Reformulator, rulesReformulator } from './reformulate.ts';
import { CLEAR_LEAD } from './scoring.ts';
import type { DenseView } from './dense-index.ts';
import type { RetrievalIndex } from './index.ts';

/**
 * Searches over the paragraph index: dense, hybrid (BM25 + dense fused by rank) and the reformulated hybrid
 * search of method A. `raw` searches the paragraph text, `json` adds the paragraphs' structure and the
 * structured boosts.
 */
export type ParagraphSpace = 'raw' | 'json';

export async function denseSearch(ctx: RetrievalContext, space: ParagraphSpace, text: string, filter?: (id: string) => boolean): Promise<ScoredId[]> {
  const [v] = await embedQueries(ctx.index.embedder, [text]);
  return ctx.index[space].dense.query(v, CANDIDATES, filter);
}

/** Paragraphs the dense search reads per chunk asked for: enough that k distinct chunks are nearly always among them. */
const PARAGRAPHS_PER_CHUNK = 12;

/**
 * Method B's VectorRAG over section chunks, each chunk scored by its closest paragraph in the structured space (see
 * lib/retrieval/passage-vectors.ts): the `k` best chunks, best first.
 */
export async function denseChunks(
  index: { json: { dense: DenseView }; chunkOf: RetrievalIndex['chunkOf'] },
  vector: Float32Array,
  k: number,
): Promise<ScoredId[]> {
  const hits = await index.json.dense.query(vector, Math.max(k * PARAGRAPHS_PER_CHUNK, CANDIDATES));
  const chunks: ScoredId[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    const chunk = index.chunkOf.get(h.id);
    if (!chunk || seen.has(chunk)) continue;
    seen.add(chunk);
    chunks.push({ id: chunk, score: h.score });
    if (chunks.length === k) break;
  }
  return chunks;
}

/** A text's BM25 terms in one space, with the abbreviations the corpus defines expanded both ways ("OCV" ~ "open circuit voltage"). */
function searchTerms(ctx: RetrievalContext, space: ParagraphSpace, text: string): string[] {
  if (space === 'raw') return [...plainTerms(text), ...ctx.index.abbreviations.expansions(text)];
  // The structured space also meets a family written with x or as a dopant phrase in the members papers state.
  const facets = textFacets(text);
  // A mixed compound named in words ("strontium titanium oxide") is searched as its family's members, not as its parts.
  const mixed = mixedNames(text);
  const parts = new Set(mixed.flatMap((m) => m.parts.map((k) => `f:${k}`)));
  const structured = structuredTerms(text, facets).filter((t) => !parts.has(t));
  return [...structured, ...ctx.index.abbreviations.expansions(text), ...familyExpansions(ctx.index, text, facets.formulas, mixed)];
}

/** BM25 and dense retrieval for each text, fused by reciprocal rank (dense weighted by its embedder); dense vectors scanned once for all texts. */
export async function hybridSearchMany(ctx: RetrievalContext, space: ParagraphSpace, texts: string[], filter?: (id: string) => boolean): Promise<ScoredId[][]> {
  const vectors = await embedQueries(ctx.index.embedder, texts);
  const dense = await ctx.index[space].dense.queryMany(vectors, CANDIDATES, filter);
  return Promise.all(
    texts.map(async (text, i) => {
      const terms = searchTerms(ctx, space, text);
      const lexical = await ctx.index[space].lexical.query(terms, { limit: CANDIDATES, filter });
      return reciprocalRankFusion([{ hits: lexical }, { hits: dense[i], weight: ctx.index.embedder.fusionWeight ?? 1 }]).slice(0, CANDIDATES);
    }),
  );
}

/**
 * A model's reformulation may take half the question's time left; a slower one is answered for by the rules, as a
 * failing one is (the trace says which), so the question still has time for its searches.
 */
function modelTime<T>(ctx: Pick<RetrievalContext, 'deadline'>, work: Promise<T>): Promise<T> {
  return ctx.deadline ? ctx.deadline.share(0.5).race(work, () => new Error('the model took longer than the question may wait')) : work;
}

/**
 * Method A's reformulated search: (1) optimise the question into a query, (2) hybrid search (filtered to a
 * quoted title's paper), (3) sufficiency check, and when insufficient (4) decompose into sub-queries whose
 * results are fused with the first. A failing model reformulator falls back to the rules, and the trace says so.
 */
export async function reformulatedSearch(
  ctx: RetrievalContext,
  space: ParagraphSpace,
  reformulator: Reformulator,
): Promise<{ hits: ScoredId[]; titleMatched: boolean | null }> {
  const { analysis } = ctx;
  const plan = await ctx.plan();
  const optimised = await ctx.step(
    'optimise',
    async () => {
      if (reformulator.id === rulesReformulator.id) return { ...plan.optimised, by: reformulator.id, error: null as string | null };
      try {
        return { ...(await modelTime(ctx, reformulator.optimise(analysis.question, analysis))), by: reformulator.id, error: null as string | null };
      } catch (error) {
        return { ...plan.optimised, by: 'rules', error: `model failed, rules used: ${(error as Error).message}` };
      }
    },
    (o) => ({ query: o.query, keywords: o.keywords, removed: o.removed, by: o.by, ...(o.error ? { error: o.error } : {}) }),
  );
  const { titlePaper } = plan;
  const filter = titlePaper ? (id: string) => ctx.index.paragraphs.get(id)?.paperId === titlePaper : undefined;

  const { hits: first } = await ctx.step(
    `first-${space}`,
    async () => {
      // BM25 on every word of the question as typed (plus the abbreviations it uses, both ways). Measured on the
      // dev sets, the words the rules' optimisation drops are cheap for BM25 (their IDF is low) while a question
      // typed as keywords or describing a paper ("hollow hierarchical Bi2WO6 CO2 photoreduction") is decided by
      // them, and the character n-gram vectors pull such questions towards papers that merely share word pieces
      // (natural-wording DOI@1 0.82 with them, 0.92 without). An optimised query that adds words the question lacks
      // (a model's synonyms) is searched hybrid and fused.
      const terms = searchTerms(ctx, space, analysis.question);
      const lexical = await ctx.index[space].lexical.query(terms, { limit: CANDIDATES, filter });
      const asked = new Set(plainTerms(analysis.question));
      const added = plainTerms(optimised.query).filter((t) => !asked.has(t));
      if (added.length === 0) return { hits: lexical, added };
      const [hybrid] = await hybridSearchMany(ctx, space, [optimised.query], filter);
      return { hits: reciprocalRankFusion([{ hits: lexical }, { hits: hybrid }]).slice(0, CANDIDATES), added };
    },
    (h) => ({ candidates: h.hits.length, top: topIds(ctx, h.hits), ...(h.added.length ? { fusedWithOptimised: h.added } : {}) }),
  );
  let merged = space === 'json' ? facetRerank(ctx, first) : first;
  const check = await ctx.step(
    'sufficiency',
    () => sufficiency(ctx, merged),
    (s) => ({ ...s }),
  );
  // A first retrieval whose best paper leads the next by CLEAR_LEAD of its score is kept as it is: sub-queries each
  // carry a part of the question, and merging them by rank flattens a lead the whole question earned.
  if (!check.sufficient && paperLead(ctx, first) < CLEAR_LEAD) {
    const subs = await ctx.step(
      'decompose',
      async () => {
        try {
          return { queries: await modelTime(ctx, reformulator.decompose(analysis.question, analysis)), by: reformulator.id, error: null as string | null };
        } catch (error) {
          return {
            queries: await rulesReformulator.decompose(analysis.question, analysis),
            by: 'rules',
            error: `model failed, rules used: ${(error as Error).message}`,
          };
        }
      },
      (d) => ({ subQueries: d.queries, by: d.by, ...(d.error ? { error: d.error } : {}) }),
    );
    if (subs.queries.length > 0) {
      const lists: { hits: ScoredId[] }[] = [{ hits: first }];
      const optimisedSubs = await Promise.all(subs.queries.map(async (q) => (await rulesReformulator.optimise(q, analyseQuestion(q))).query));
      const subHits = await ctx.step(
        'sub-queries',
        () => hybridSearchMany(ctx, space, optimisedSubs, filter),
        (hs) => ({
          queries: optimisedSubs,
          top: hs.map((h) => topIds(ctx, h)),
        }),
      );
      for (const hits of subHits) lists.push({ hits });
      const fused = await ctx.step(
        'merge',
        () => reciprocalRankFusion(lists).slice(0, CANDIDATES),
        (h) => ({ lists: lists.length, top: topIds(ctx, h) }),
      );
      merged = space === 'json' ? facetRerank(ctx, fused) : fused;
      await ctx.step(
        'sufficiency-after-merge',
        () => sufficiency(ctx, merged),
        (s) => ({ ...s }),
      );
    }
  }
  if (space === 'json')
    await ctx.step(
      'structured-boosts',
      () => merged,
      (h) => ({ top: topIds(ctx, h) }),
    );
  return { hits: merged, titleMatched: analysis.title ? titlePaper !== null : null };
}
