import { partIfReadyInTime } from '../retrieval/context.ts';
import { fuseEvidence } from '../retrieval/fusion.ts';
import { GRAPH_WEIGHT } from '../retrieval/scoring.ts';
import { graph } from './graph.ts';
import { jsonQr } from './json-qr.ts';
import { definePipeline } from './types.ts';

/**
 * Both retrievers behind one answer: the structured-JSON retriever (json-qr) and the knowledge-graph retriever
 * (graph) run on the question, and their evidence is fused by provenance. A paragraph found by both keeps the
 * structured score plus a share of the graph's, and gains the tuples that point at it, so a claim can cite the
 * sentence that states it and the tuple that connects it; paragraphs only the graph found join below them.
 */
const GRAPH_BUILDING_NOTICE =
  'The knowledge graph is still being prepared: this was found in the paragraphs alone. Ask again in a minute for its facts and paths too.';

export const hybrid = definePipeline({
  name: 'hybrid',
  label: 'Paragraphs and knowledge graph (recommended)',
  line: "Assay's two retrievers together: paragraphs with their extracted facts, and the knowledge graph.",
  description: 'Structured-JSON retrieval (json-qr) and knowledge-graph retrieval (graph) fused by provenance',
  defaults: { k: 5 },
  async run(ctx) {
    // Asked for now, so that a graph index still being built (a first start's warm-up, a new corpus version) builds
    // while the structured half runs. (Neo4j, when configured, is asked by the graph half itself.)
    const graphIndex = ctx.graphSource ? null : ctx.index.graph.get();
    let graphReady = false;
    graphIndex?.then(() => (graphReady = true)).catch(() => {});
    const structured = await jsonQr.run(ctx);
    // A visitor's question does not wait out its time for the graph: it is answered from the paragraphs, and says so.
    if (graphIndex && !graphReady) {
      const ready = await ctx.step(
        'wait-graph-index',
        () => partIfReadyInTime(ctx, graphIndex),
        (g) => ({ ready: g !== null }),
      );
      if (!ready) return { evidence: structured.evidence, titleMatched: structured.titleMatched, notice: GRAPH_BUILDING_NOTICE };
    }
    const tuples = await graph.run(ctx);
    // A quoted title confines the question to its paper: the graph's items from other papers do not answer it
    // (the graph half already searched within it; this drops the paragraphs its tuples point at elsewhere).
    const papers = new Set(structured.evidence.map((e) => e.paperId));
    const graphItems = structured.titleMatched ? tuples.evidence.filter((e) => papers.has(e.paperId)) : tuples.evidence;
    const fused = await ctx.step(
      'fuse',
      () => fuseEvidence(structured.evidence, graphItems, GRAPH_WEIGHT),
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
