import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { evaluationOutcomes } from '../db/evaluation-runs.ts';
import type { EvaluationSummary } from '../evaluation/retrieval-eval.ts';

/**
 * `npm run eval -- --search memory,database`: the same questions through the same pipelines with paragraph search
 * in the process and in the database (`database+vectors`: dense search in pgvector too), compared question by question — whether each gave the same top five evidence
 * items in the same order, the same outcomes (DOI@1, value@3, abstention) and, with `--answer`, the same answer —
 * and metric by metric with the latencies side by side.
 */
/** Where the searches run: `memory`; `database` (ASSAY_SEARCH=database); `database+vectors` (ASSAY_VECTORS=database too). */
export type SearchMode = 'memory' | 'database' | 'database+vectors';

export const isSearchMode = (s: string): s is SearchMode => s === 'memory' || s === 'database' || s === 'database+vectors';

export function searchSettings(mode: SearchMode): Pick<AssayConfig, 'search' | 'vectors'> {
  return mode === 'memory' ? { search: 'memory', vectors: 'memory' } : { search: 'database', vectors: mode === 'database' ? 'memory' : 'database' };
}

export interface SearchRun {
  search: SearchMode;
  runId: string;
  summary: EvaluationSummary;
}

export interface PipelineParity {
  questions: number;
  sameEvidence: number;
  sameOutcome: number;
  sameAnswer: number | null;
  /** Question ids whose top evidence or outcome differs (the first ten). */
  differing: string[];
  metrics: Record<string, Record<SearchMode, number | null>>;
}

const fmt = (x: number | null) => (x === null ? '    –' : x.toFixed(3));

export async function searchParity(db: Database, runs: SearchRun[]): Promise<Record<string, PipelineParity>> {
  const [base, other] = runs;
  const [a, b] = await Promise.all([evaluationOutcomes(db, base.runId), evaluationOutcomes(db, other.runId)]);
  const key = (r: { pipeline: string; questionId: string }) => `${r.pipeline}\u0000${r.questionId}`;
  const byKey = new Map(b.map((r) => [key(r), r]));
  const out: Record<string, PipelineParity> = {};
  for (const pipeline of Object.keys(base.summary.pipelines)) {
    const mine = a.filter((r) => r.pipeline === pipeline);
    let sameEvidence = 0;
    let sameOutcome = 0;
    let sameAnswer = 0;
    let answered = 0;
    const differing: string[] = [];
    for (const r of mine) {
      const o = byKey.get(key(r));
      if (!o) continue;
      const evidence = JSON.stringify(r.evidence) === JSON.stringify(o.evidence);
      const outcome = r.doiAt1 === o.doiAt1 && r.valueAt3 === o.valueAt3 && r.abstained === o.abstained;
      sameEvidence += evidence ? 1 : 0;
      sameOutcome += outcome ? 1 : 0;
      if (r.answer != null || o.answer != null) {
        answered++;
        if (JSON.stringify(r.answer) === JSON.stringify(o.answer)) sameAnswer++;
      }
      if ((!evidence || !outcome) && differing.length < 10) differing.push(r.questionId);
    }
    const m = (run: SearchRun) => run.summary.pipelines[pipeline];
    const metric = (f: (x: EvaluationSummary['pipelines'][string]) => number | null) =>
      Object.fromEntries(runs.map((run) => [run.search, m(run) ? f(m(run)) : null])) as Record<SearchMode, number | null>;
    out[pipeline] = {
      questions: mine.length,
      sameEvidence,
      sameOutcome,
      sameAnswer: answered ? sameAnswer : null,
      differing,
      metrics: {
        doi_at_1: metric((x) => x.doi_at_1),
        value_at_3: metric((x) => x.value_at_3),
        abstain_rate_unanswerable: metric((x) => x.abstain_rate_unanswerable),
        false_abstain_rate: metric((x) => x.false_abstain_rate),
        answer_value_acc: metric((x) => x.answers?.answer_value_acc ?? null),
        p50_ms: metric((x) => x.latency_ms.p50),
        p95_ms: metric((x) => x.latency_ms.p95),
      },
    };
  }
  console.log(`\nsearch parity: ${base.search} (run ${base.runId}) against ${other.search} (run ${other.runId}); per metric ${base.search} → ${other.search}`);
  console.log(
    `${'name'.padEnd(22)} ${'n'.padStart(5)} same.top5 same.outc same.ans  doi@1          val@3          abst           f.abst         p50ms          p95ms`,
  );
  for (const [name, p] of Object.entries(out)) {
    const pair = (k: string, digits = 3) => {
      const [x, y] = [p.metrics[k][base.search], p.metrics[k][other.search]];
      const f = (v: number | null) => (v === null ? '–' : digits === 3 ? fmt(v) : v.toFixed(digits));
      return `${f(x)}→${f(y)}`.padEnd(15);
    };
    console.log(
      `${name.padEnd(22)} ${String(p.questions).padStart(5)} ${String(p.sameEvidence).padStart(9)} ${String(p.sameOutcome).padStart(9)} ${String(p.sameAnswer ?? '–').padStart(8)}  ${pair('doi_at_1')}${pair('value_at_3')}${pair('abstain_rate_unanswerable')}${pair('false_abstain_rate')}${pair('p50_ms', 1)}${pair('p95_ms', 1)}`,
    );
    if (p.differing.length) console.log(`  differing (first ${p.differing.length}): ${p.differing.join(', ')}`);
  }
  return out;
}
