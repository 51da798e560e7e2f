import { idParam, type SearchParams, pageParam, textParam } from '@/lib/common/params';
import Link from 'next/link';
import { allowedViewer } from '@/app/allowed-viewer';
import { notFound } from 'next/navigation';
import { MetricChart } from '@/components/metric-chart';
import { evaluationRun, evaluationRunResults } from '@/lib/services/evaluation';
import type { EvaluationSummary } from '@/lib/services/vocabulary';
import type { PipelineMetrics } from '@/lib/services/vocabulary';

export const dynamic = 'force-dynamic';

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(3));
const metrics: { key: keyof PipelineMetrics; label: string }[] = [
  { key: 'doi_at_1', label: 'doi@1' },
  { key: 'doi_at_5', label: 'doi@5' },
  { key: 'mrr', label: 'MRR' },
  { key: 'recall_at_5_paragraph', label: 'para@5' },
  { key: 'value_at_3', label: 'value@3' },
  { key: 'abstain_rate_unanswerable', label: 'abstain' },
  { key: 'false_abstain_rate', label: 'false abst.' },
];

function MetricsTable({ rows, label }: { rows: [string, PipelineMetrics][]; label: string }) {
  return (
    <table className="w-full border-collapse text-sm" aria-label={label}>
      <thead>
        <tr className="border-b border-slate-300 text-left text-slate-600">
          <th className="py-1.5">{label}</th>
          <th className="text-right">n</th>
          {metrics.map((m) => (
            <th key={m.key} className="text-right">
              {m.label}
            </th>
          ))}
          <th className="text-right">p50 ms</th>
          <th className="text-right">p95 ms</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, m]) => (
          <tr key={name} className="border-b border-slate-100">
            <td className="py-1.5 font-medium">{name}</td>
            <td className="text-right">{m.questions}</td>
            {metrics.map((k) => (
              <td key={k.key} className="text-right tabular-nums">
                {fmt(m[k.key] as number | null)}
              </td>
            ))}
            <td className="text-right tabular-nums">{m.latency_ms.p50.toFixed(1)}</td>
            <td className="text-right tabular-nums">{m.latency_ms.p95.toFixed(1)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default async function EvaluationRunPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }) {
  await allowedViewer('evaluations');
  const { id } = await params;
  const sp = await searchParams;
  const found = idParam(id) ? await evaluationRun(id) : null;
  if (!found) notFound();
  const { run } = found;
  const summary = run.summary as unknown as EvaluationSummary | null;
  const settings = (run.settings ?? {}) as Record<string, unknown>;
  const pipeline = run.pipelines.includes(textParam(sp.pipeline)) ? textParam(sp.pipeline) : '';
  const type = ['doi', 'value', 'unanswerable'].includes(textParam(sp.type)) ? textParam(sp.type) : '';
  const outcome = textParam(sp.outcome) === 'hit' || textParam(sp.outcome) === 'miss' ? (textParam(sp.outcome) as 'hit' | 'miss') : undefined;
  const page = pageParam(sp.page);
  const results = await evaluationRunResults(id, { pipeline: pipeline || undefined, type: type || undefined, outcome, page });
  const link = (over: Record<string, string | number | undefined>) => {
    const q = new URLSearchParams();
    const merged = { pipeline, type, outcome, page: undefined as number | undefined, ...over };
    for (const [k, v] of Object.entries(merged)) if (v) q.set(k, String(v));
    return `/evaluation/runs/${id}?${q}`;
  };
  const pages = Math.max(1, Math.ceil(results.total / results.pageSize));
  return (
    <div className="space-y-6">
      <div>
        <Link href="/evaluation/runs" className="text-sm text-teal-800 hover:underline">
          ← all runs
        </Link>
        <h1 className="text-2xl font-semibold">
          {run.questionSet}: {run.questions.toLocaleString('en')} questions × {run.pipelines.length} pipelines
        </h1>
        <p className="text-sm text-slate-600">
          {run.status} · started {run.startedAt.toISOString().replace('T', ' ').slice(0, 19)}
          {run.finishedAt && ` · ${Math.round((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000)} s`}
          {settings.embedder ? ` · embedder ${String(settings.embedder)}` : ''}
          {settings.reformulator ? ` · reformulation ${String(settings.reformulator)}` : ''}
          {settings.indexBuildSeconds ? ` · index built in ${String(settings.indexBuildSeconds)} s` : ''}
        </p>
        {run.message && <p className="text-sm text-red-700">{run.message}</p>}
      </div>
      {summary && (
        <>
          <section aria-label="Summary" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
            <MetricChart
              rows={Object.entries(summary.pipelines).map(([p, m]) => ({
                pipeline: p,
                values: Object.fromEntries(metrics.map((k) => [k.label, m[k.key] as number | null])),
              }))}
              metrics={metrics.map((m) => ({ key: m.label, label: m.label }))}
            />
            <MetricsTable rows={Object.entries(summary.pipelines)} label="Pipeline" />
          </section>
          {Object.entries(summary.pipelines).map(([p, s]) => (
            <details key={p} className="rounded-lg border border-slate-200 bg-white p-4">
              <summary className="cursor-pointer font-medium">{p}: per question type and source</summary>
              <div className="mt-3 space-y-3">
                <MetricsTable rows={Object.entries(s.by_type)} label="Type" />
                <MetricsTable rows={Object.entries(s.by_source)} label="Source" />
              </div>
            </details>
          ))}
        </>
      )}
      <section aria-label="Questions" className="space-y-3">
        <h2 className="text-lg font-semibold">Questions</h2>
        <div className="flex flex-wrap gap-2 text-sm">
          {['', ...run.pipelines].map((p) => (
            <Link key={p || 'all'} href={link({ pipeline: p })} className={`rounded px-2 py-0.5 ${p === pipeline ? 'bg-teal-700 text-white' : 'bg-slate-100'}`}>
              {p || 'all pipelines'}
            </Link>
          ))}
          <span className="mx-2 text-slate-300">|</span>
          {['', 'doi', 'value', 'unanswerable'].map((t) => (
            <Link key={t || 'all'} href={link({ type: t })} className={`rounded px-2 py-0.5 ${t === type ? 'bg-teal-700 text-white' : 'bg-slate-100'}`}>
              {t || 'all types'}
            </Link>
          ))}
          <span className="mx-2 text-slate-300">|</span>
          {[undefined, 'hit', 'miss'].map((o) => (
            <Link key={o ?? 'all'} href={link({ outcome: o })} className={`rounded px-2 py-0.5 ${o === outcome ? 'bg-teal-700 text-white' : 'bg-slate-100'}`}>
              {o ?? 'hits and misses'}
            </Link>
          ))}
        </div>
        <p className="text-xs text-slate-500">
          {results.total.toLocaleString('en')} results. A hit is doi@1 for doi questions, value@3 for value questions and an abstention for unanswerable ones.
        </p>
        <table className="w-full border-collapse text-sm" aria-label="Results">
          <thead>
            <tr className="border-b border-slate-300 text-left text-slate-600">
              <th className="py-1.5">Question</th>
              <th>Pipeline</th>
              <th>Outcome</th>
              <th className="px-3 text-right">Rank</th>
              <th className="text-right">ms</th>
            </tr>
          </thead>
          <tbody>
            {results.rows.map((r) => {
              const hit = r.type === 'doi' ? r.doiAt1 : r.type === 'value' ? r.valueAt3 : r.abstained;
              return (
                <tr key={r.id} className="border-b border-slate-100 align-top">
                  <td className="py-1.5">
                    <Link href={`/evaluation/runs/${id}/results/${r.id}`} className="text-teal-800 hover:underline">
                      {r.question}
                    </Link>
                    <div className="text-xs text-slate-500">
                      {r.questionId} · {r.type} · {r.source}
                    </div>
                  </td>
                  <td>{r.pipeline}</td>
                  <td>
                    <span className={`rounded px-1.5 py-0.5 text-xs ${hit ? 'bg-emerald-100 text-emerald-800' : 'bg-red-100 text-red-800'}`}>
                      {hit ? 'hit' : 'miss'}
                    </span>
                    {r.abstained && r.type !== 'unanswerable' && <span className="ml-1 text-xs text-amber-700">abstained</span>}
                  </td>
                  <td className="px-3 text-right">{r.rank ?? '–'}</td>
                  <td className="text-right tabular-nums">{r.latencyMs.toFixed(1)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {pages > 1 && (
          <nav className="flex items-center gap-3 text-sm" aria-label="Pages">
            {page > 1 && <Link href={link({ page: page - 1 })}>← previous</Link>}
            <span>
              page {page} of {pages}
            </span>
            {page < pages && <Link href={link({ page: page + 1 })}>next →</Link>}
          </nav>
        )}
      </section>
    </div>
  );
}
