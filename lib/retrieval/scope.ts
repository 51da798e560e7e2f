import type { Evidence } from '../evidence/model.ts';
import type { RetrievalContext } from './context.ts';
import { paragraphEvidence } from './evidence.ts';
import { hybridSearchMany } from './search.ts';

/**
 * A question's scope: the papers the asker's filters admit (domain, material, method, a condition range; resolved
 * to paper ids by the library's paper search). Evidence outside it is dropped; when too little is left, the
 * scoped papers' paragraphs are searched directly (BM25 and dense, fused), so a narrow filter still finds what its papers say rather than
 * only what the whole-corpus search happened to rank high.
 */
export interface QuestionScope {
  paperIds: ReadonlySet<string>;
  /** The filters as the asker set them, e.g. "domain sofc · method sol-gel", for the trace and the answer. */
  description: string;
}

/** The paper an item belongs to, by id or, for records stored without one, by DOI. */
function paperOfItem(ctx: RetrievalContext, e: Evidence): string | null {
  return e.paperId ?? (e.doi ? (ctx.index.paperByDoi.get(e.doi) ?? null) : null);
}

export function inScope(ctx: RetrievalContext, scope: QuestionScope, e: Evidence): boolean {
  const paper = paperOfItem(ctx, e);
  return paper !== null && scope.paperIds.has(paper);
}

/** The evidence within the scope, best first, topped up from a lexical search of the scoped papers' paragraphs. */
export async function scopeEvidence(
  ctx: RetrievalContext,
  scope: QuestionScope,
  evidence: Evidence[],
  question: string,
): Promise<{ evidence: Evidence[]; added: number }> {
  const kept = evidence.filter((e) => inScope(ctx, scope, e));
  if (kept.length >= ctx.k || scope.paperIds.size === 0) return { evidence: kept, added: 0 };
  const have = new Set(kept.map((e) => e.id));
  const [hits] = await hybridSearchMany(ctx, 'raw', [question], (id) => scope.paperIds.has(ctx.index.paragraphs.get(id)?.paperId ?? ''));
  // Scores of a different search are not comparable: the added items rank after everything the pipeline kept
  // (in the scoped search's order, below the lowest kept score).
  const floor = kept.length ? Math.min(...kept.map((e) => e.score)) : null;
  const added = hits
    .map((h) => paragraphEvidence(ctx, h))
    .filter((e) => !have.has(e.id))
    .slice(0, ctx.k - kept.length)
    .map((e, i) => (floor === null ? e : { ...e, score: floor - (i + 1) * 0.01 * Math.max(Math.abs(floor), 1e-6) }));
  return { evidence: [...kept, ...added], added: added.length };
}
