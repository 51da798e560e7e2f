import type { RetrievalTupleRow } from '../../lib/db/graph-views.ts';
import { lazyGraphIndex, type GraphIndex } from '../../lib/retrieval/graph-index.ts';
import type { TextEmbedder } from '../../lib/embedding/embedder.ts';
import { asOnePage } from './retrieval-fixtures.ts';

/**
 * A small hand-made graph for the tier logic tests: the tuples as given and a table embedder whose vectors
 * the test chooses, so every cosine in a test is known. Every text not in the table gets an axis of its own
 * (cosine 0 with everything else).
 */
export async function handMadeGraph(
  rows: RetrievalTupleRow[],
  vectors: Record<string, number[]>,
): Promise<{ graph: GraphIndex; embed: (t: string[]) => Promise<Float32Array[]> }> {
  const chosen = Math.max(0, ...Object.values(vectors).map((v) => v.length));
  const dims = chosen + 256;
  const axes = new Map<string, number>();
  const unit = (v: number[]) => {
    const out = new Float32Array(dims);
    out.set(v);
    const n = Math.hypot(...out);
    return out.map((x) => x / n);
  };
  const own = (t: string) => {
    if (!axes.has(t)) axes.set(t, chosen + axes.size);
    if (axes.get(t)! >= dims) throw new Error('handMadeGraph: more than 256 texts outside the table');
    return new Array(dims).fill(0).map((_, i) => (i === axes.get(t) ? 1 : 0));
  };
  const embedder: TextEmbedder = { id: 'table', dimensions: dims, embed: async (texts) => texts.map((t) => unit(vectors[t] ?? own(t))) };
  const graph = await lazyGraphIndex(asOnePage(rows), embedder).get();
  return { graph, embed: embedder.embed };
}
