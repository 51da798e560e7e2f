import type { PipelineName } from '../pipelines/registry.ts';
import { retrieve } from '../pipelines/run.ts';
import type { RetrievalResult, RetrieveOptions } from '../pipelines/types.ts';
import type { GraphSourceFactory } from '../retrieval/graph-source.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import type { EvaluationQuestion } from './questions.ts';
import { aggregate, type PipelineMetrics, scoreQuestion } from './retrieval-metrics.ts';

/**
 * Retrieval parity between the embedded graph and Neo4j: every question is answered by a graph pipeline twice,
 * once with candidates from the in-process index and once from Neo4j, and the results are compared — the top
 * tuples (overlap of the first k, and whether the ranked lists are identical), the top paragraphs and papers —
 * with each side's latency. Questions whose results differ are listed with the tuples only one side returned.
 */
export interface ParityDifference {
  id: string;
  question: string;
  tupleOverlap: number;
  embeddedOnly: string[];
  neo4jOnly: string[];
}

export interface ParityReport {
  pipeline: PipelineName;
  questions: number;
  k: number;
  /** Mean share of the embedded top-k tuples Neo4j's top-k also holds. */
  tupleOverlap: number;
  /** Share of questions whose top-k tuples are the same, in the same order. */
  identicalTuples: number;
  /** Mean share of the embedded top-5 paragraphs Neo4j's top 5 also holds. */
  paragraphOverlap: number;
  /** Share of questions whose first paper is the same on both sides. */
  samePaperAt1: number;
  /** Each side's retrieval metrics and latency, scored as `npm run eval` scores them. */
  embedded: PipelineMetrics;
  neo4j: PipelineMetrics;
  differences: ParityDifference[];
}

const topTuples = (r: RetrievalResult, k: number) => (r.extras?.graphEvidence ?? []).slice(0, k).map((e) => e.id);
const overlap = (a: string[], b: string[]) => (a.length === 0 ? (b.length === 0 ? 1 : 0) : a.filter((x) => b.includes(x)).length / a.length);

export async function graphParity(
  index: RetrievalIndex,
  questions: EvaluationQuestion[],
  neo4j: GraphSourceFactory,
  opts: { pipeline?: PipelineName; k?: number; base?: RetrieveOptions; onQuestion?: (done: number) => void } = {},
): Promise<ParityReport> {
  const pipeline = opts.pipeline ?? 'graph';
  const k = opts.k ?? 10;
  const rows: { q: EvaluationQuestion; embedded: RetrievalResult; neo4j: RetrievalResult }[] = [];
  // One warm-up each, so neither side's first-use work (the index build, the vectors for this embedder) is timed.
  if (questions.length) {
    await retrieve(index, questions[0].question, pipeline, opts.base);
    await retrieve(index, questions[0].question, pipeline, { ...opts.base, graphSource: neo4j });
  }
  for (const q of questions) {
    const embedded = await retrieve(index, q.question, pipeline, opts.base);
    const fromNeo4j = await retrieve(index, q.question, pipeline, { ...opts.base, graphSource: neo4j });
    rows.push({ q, embedded, neo4j: fromNeo4j });
    opts.onQuestion?.(rows.length);
  }
  const sourceIds = new Map([...index.papers.values()].map((p) => [p.id, p.sourceId]));
  const side = (pick: (r: (typeof rows)[number]) => RetrievalResult) => aggregate(rows.map((r) => scoreQuestion(r.q, pick(r), sourceIds)));
  const differences: ParityDifference[] = [];
  let tupleSum = 0;
  let identical = 0;
  let paragraphSum = 0;
  let samePaper = 0;
  for (const r of rows) {
    const a = topTuples(r.embedded, k);
    const b = topTuples(r.neo4j, k);
    const o = overlap(a, b);
    tupleSum += o;
    if (a.length === b.length && a.every((x, i) => x === b[i])) identical++;
    else
      differences.push({
        id: r.q.id,
        question: r.q.question,
        tupleOverlap: o,
        embeddedOnly: a.filter((x) => !b.includes(x)),
        neo4jOnly: b.filter((x) => !a.includes(x)),
      });
    paragraphSum += overlap(
      r.embedded.evidence.slice(0, 5).map((e) => e.id),
      r.neo4j.evidence.slice(0, 5).map((e) => e.id),
    );
    if ((r.embedded.papers[0]?.paperId ?? null) === (r.neo4j.papers[0]?.paperId ?? null)) samePaper++;
  }
  const n = Math.max(rows.length, 1);
  return {
    pipeline,
    questions: rows.length,
    k,
    tupleOverlap: tupleSum / n,
    identicalTuples: identical / n,
    paragraphOverlap: paragraphSum / n,
    samePaperAt1: samePaper / n,
    embedded: side((r) => r.embedded),
    neo4j: side((r) => r.neo4j),
    differences,
  };
}
