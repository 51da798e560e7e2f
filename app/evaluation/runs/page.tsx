import { NeedsRole } from '@/components/needs-role';
import { may } from '@/lib/services/access';
import { allowedViewer } from '@/app/allowed-viewer';
import Link from 'next/link';
import { DatabaseUnavailable } from '@/components/database-unavailable';
import { EvaluationLauncher } from '@/components/evaluation-launcher';
import { JobQueue } from '@/components/job-queue';
import { evaluationOverview } from '@/lib/services/evaluation';
import type { EvaluationSummary } from '@/lib/services/vocabulary';
import { PIPELINES, pipelineDescriptions } from '@/lib/services/vocabulary';

export const dynamic = 'force-dynamic';

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(3));
const statusStyle: Record<string, string> = {
  running: 'bg-sky-100 text-sky-800',
  succeeded: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
};

export default async function EvaluationRunsPage() {
  const viewer = await allowedViewer('evaluations');
  let overview: Awaited<ReturnType<typeof evaluationOverview>>;
  try {
    overview = await evaluationOverview();
  } catch (error) {
    return <DatabaseUnavailable message={(error as Error).message} />;
  }
  const { runs, questionSets: sets } = overview;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Evaluation runs</h1>
        <p className="text-sm text-slate-600">
          Each run sends every question of a set through the chosen retrieval pipelines and scores the answers: doi@1/@5 (answer paper in the top 1/5), MRR,
          paragraph recall@5, value@3, abstention on unanswerable questions and false abstention on answerable ones.
        </p>
      </div>
      <JobQueue />
      {may(viewer, 'evaluate') ? (
        <EvaluationLauncher
          questionSets={sets}
          pipelines={PIPELINES.map((p) => ({ name: p, description: pipelineDescriptions[p] }))}
          runningIds={runs.filter((r) => r.status === 'running').map((r) => r.id)}
        />
      ) : (
        <NeedsRole needs="admin" what="Starting an evaluation run" signedIn={!!viewer.user} />
      )}
      {runs.length === 0 ? (
        <p className="text-sm text-slate-600">No runs yet.</p>
      ) : (
        <table className="w-full border-collapse text-sm" aria-label="Runs">
          <thead>
            <tr className="border-b border-slate-300 text-left text-slate-600">
              <th className="py-2">Started</th>
              <th>Questions</th>
              <th>Status</th>
              <th>Best pipeline by doi@1</th>
              <th className="text-right">doi@1</th>
              <th className="text-right">doi@5</th>
              <th className="text-right">value@3</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => {
              const summary = r.summary as unknown as EvaluationSummary | null;
              const best = summary ? Object.entries(summary.pipelines).sort((a, b) => (b[1].doi_at_1 ?? -1) - (a[1].doi_at_1 ?? -1))[0] : undefined;
              return (
                <tr key={r.id} className="border-b border-slate-100">
                  <td className="py-2">
                    <Link href={`/evaluation/runs/${r.id}`} className="text-teal-800 hover:underline">
                      {r.startedAt.toISOString().replace('T', ' ').slice(0, 19)}
                    </Link>
                  </td>
                  <td>
                    {r.questionSet} ({r.questions.toLocaleString('en')}) × {r.pipelines.length}
                  </td>
                  <td>
                    <span className={`rounded px-1.5 py-0.5 text-xs ${statusStyle[r.status] ?? ''}`}>{r.status}</span>
                    {r.message && <span className="ml-2 text-xs text-red-700">{r.message.slice(0, 120)}</span>}
                  </td>
                  <td>{best?.[0] ?? '–'}</td>
                  <td className="text-right">{fmt(best?.[1].doi_at_1)}</td>
                  <td className="text-right">{fmt(best?.[1].doi_at_5)}</td>
                  <td className="text-right">{fmt(best?.[1].value_at_3)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
