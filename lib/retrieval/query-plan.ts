import { lazyOnce } from '../common/lazy.ts';
import { plainTerms } from '../structure/terms.ts';
import type { QueryPlan, RetrievalContext } from './context.ts';
import { rulesReformulator } from './reformulate.ts';

/** The paper whose title a quoted title names: most of the quoted words and most of the paper title's must agree. */
export function matchTitle(ctx: Pick<RetrievalContext, 'index'>, title: string): string | null {
  const terms = plainTerms(title);
  const best = ctx.index.titles.query(terms, { limit: 3 })[0];
  if (!best) return null;
  const paper = ctx.index.papers.get(best.id)!;
  const have = new Set(paper.titleTerms);
  const shared = terms.filter((t) => have.has(t)).length;
  return shared / Math.max(terms.length, 1) >= 0.6 && shared / Math.max(have.size, 1) >= 0.5 ? best.id : null;
}

/** The plan of the context's question: the title filter is a traced step when the question quotes a title. */
export async function planQuery(ctx: Omit<RetrievalContext, 'plan'>): Promise<QueryPlan> {
  const optimised = await rulesReformulator.optimise(ctx.analysis.question, ctx.analysis);
  const title = ctx.analysis.title;
  const titlePaper = title
    ? await ctx.step(
        'title-filter',
        () => matchTitle(ctx, title),
        (t) => ({ title, paper: t ? ctx.index.papers.get(t)?.title : null }),
      )
    : null;
  return { optimised, titlePaper };
}

/** A retrieval context whose query plan is made on first use, once (what every question's searches share). */
export function withQueryPlan<C extends Omit<RetrievalContext, 'plan'>>(base: C): C & Pick<RetrievalContext, 'plan'> {
  return { ...base, plan: lazyOnce(() => planQuery(base)) };
}
