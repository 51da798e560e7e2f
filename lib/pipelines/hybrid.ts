import type { Evidence } from '../evidence/model.ts';
import { graph } from './graph.ts';
import { jsonQr } from './json-qr.ts';
import { definePipeline } from './types.ts';

/**
 * Weight of the graph retriever's score in the fused ranking (both max-normalised). Zero for now: the graph finds
 * the right paper for about half of the dev questions where the structured retriever finds it for nearly all,
 * and on questions.dev.jsonl a weight of 0.25 cost 3 points of DOI@1 (0.958 → 0.929) and even 0.05 one point.
 * The graph's part is its tuples on the paragraphs both found, and its own items below the structured ones.
 */
export const GRAPH_WEIGHT = 0;

/**
 * Both retrievers behind one answer: the structured-JSON retriever (json-qr) and the knowledge-graph retriever
 * (graph) run on the question, and their evidence is fused by provenance. A paragraph found by both keeps the
 * structured score plus a share of the graph's, and gains the tuples that point at it, so a claim can cite the
 * sentence that states it and the tuple that connects it; paragraphs only the graph found join below them.
 */
export const hybrid = definePipeline({
  name: 'hybrid',
  description: 'Structured-JSON retrieval (json-qr) and knowledge-graph retrieval (graph) fused by provenance',
  defaults: { k: 5 },
  async run(ctx) {
    const structured = await jsonQr.run(ctx);
    const tuples = await graph.run(ctx);
    // A quoted title confines the question to its paper: the graph's items from other papers do not answer it.
    const papers = new Set(structured.evidence.map((e) => e.paperId));
    const graphItems = structured.titleMatched ? tuples.evidence.filter((e) => papers.has(e.paperId)) : tuples.evidence;
    const fused = await ctx.step(
      'fuse',
      () => fuseByProvenance(structured.evidence, graphItems, GRAPH_WEIGHT),
      (f) => ({
        structured: structured.evidence.length,
        graph: tuples.evidence.length,
        fused: f.length,
        both: f.filter((e) => e.provenance.some((p) => p.kind === 'tuple')).length,
      }),
    );
    return { evidence: fused, titleMatched: structured.titleMatched, extras: tuples.extras };
  },
});

/** Fuses two ranked lists of items by id: max-normalised scores, `weight` for the second, provenance merged. */
export function fuseByProvenance(first: Evidence[], second: Evidence[], weight: number): Evidence[] {
  const top = (list: Evidence[]) => list.reduce((m, e) => Math.max(m, e.score), 0) || 1;
  const [a, b] = [top(first), top(second)];
  // Items only the second list has rank below every item of the first.
  const floor = first.reduce((m, e) => Math.min(m, e.score / a), 1);
  const out = new Map<string, Evidence>();
  for (const e of first) out.set(e.id, { ...e, score: e.score / a });
  for (const e of second) {
    const cur = out.get(e.id);
    const add = (weight * e.score) / b;
    if (!cur) out.set(e.id, { ...e, score: first.length ? floor * (e.score / b) * 0.5 : e.score / b });
    else {
      const known = new Set(cur.provenance.map((p) => JSON.stringify(p)));
      out.set(e.id, { ...cur, score: cur.score + add, provenance: [...cur.provenance, ...e.provenance.filter((p) => !known.has(JSON.stringify(p)))] });
    }
  }
  return [...out.values()].sort((x, y) => y.score - x.score);
}
