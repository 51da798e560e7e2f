import { CANDIDATES, topIds } from '../retrieval/context.ts';
import { facetRerank } from '../retrieval/coverage.ts';
import { paragraphEvidence } from '../retrieval/evidence.ts';
import { denseSearch, type ParagraphSpace, reformulatedSearch } from '../retrieval/search.ts';
import { plainTerms } from '../structure/terms.ts';
import type { PipelineContext, PipelineOutput } from './types.ts';

/** Searches over paragraphs shared by the raw and json pipeline pairs. */

/** Dense search over paragraphs of one space, with or without the structured boosts (shared by raw-dense and json-dense). */
export async function denseParagraphs(ctx: PipelineContext, space: ParagraphSpace, boosts: boolean): Promise<PipelineOutput> {
  const hits = await ctx.step(
    `dense-${space}`,
    () => denseSearch(ctx, space, ctx.question),
    (h) => ({ candidates: h.length, top: topIds(ctx, h) }),
  );
  const final = boosts
    ? await ctx.step(
        'structured-boosts',
        () => facetRerank(ctx, hits),
        (h) => ({ top: topIds(ctx, h) }),
      )
    : hits;
  return { evidence: final.map((h) => paragraphEvidence(ctx, h)) };
}

/** Method A's reformulated hybrid search over paragraphs of one space (shared by raw-qr and json-qr). */
export async function reformulatedParagraphs(ctx: PipelineContext, space: ParagraphSpace): Promise<PipelineOutput> {
  const { hits, titleMatched } = await reformulatedSearch(ctx, space, ctx.reformulator);
  return { evidence: hits.map((h) => paragraphEvidence(ctx, h)), titleMatched };
}

/**
 * Plain BM25 over the raw paragraphs and their papers' titles, the question's words as typed (no reformulation,
 * no dense vectors, no spelling correction, no abbreviations): the baseline the other pipelines must beat.
 */
export async function plainBm25Paragraphs(ctx: PipelineContext): Promise<PipelineOutput> {
  const hits = await ctx.step(
    'bm25-raw',
    () => ctx.index.raw.lexical.query(plainTerms(ctx.originalQuestion), { limit: CANDIDATES }),
    (h) => ({ candidates: h.length, top: topIds(ctx, h) }),
  );
  return { evidence: hits.map((h) => paragraphEvidence(ctx, h)) };
}
