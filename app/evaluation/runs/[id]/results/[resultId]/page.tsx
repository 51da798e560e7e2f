import { allowedViewer } from '@/app/allowed-viewer';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { evaluationResult } from '@/lib/services/evaluation';
import { externalIdsOf } from '@/lib/evidence/model';
import type { ResultDetail } from '@/lib/services/vocabulary';
import { TraceList } from '@/components/trace-list';

export const dynamic = 'force-dynamic';

export default async function EvaluationResultPage({ params }: { params: Promise<{ id: string; resultId: string }> }) {
  await allowedViewer('evaluations');
  const { id, resultId } = await params;
  const r = await evaluationResult(id, resultId);
  if (!r) notFound();
  const d = r.detail as unknown as ResultDetail;
  const isGold = (p: { doi: string | null; sourceId: string | null }) =>
    (!!d.gold.doi && p.doi?.toLowerCase() === d.gold.doi.toLowerCase()) || (!!d.gold.paperId && p.sourceId === d.gold.paperId);
  return (
    <div className="space-y-5">
      <Link href={`/evaluation/runs/${id}?pipeline=${r.pipeline}`} className="text-sm text-teal-800 hover:underline">
        ← run
      </Link>
      <div>
        <h1 className="text-xl font-semibold">{r.question}</h1>
        <p className="text-sm text-slate-600">
          {r.questionId} · {r.type} · {r.source} · pipeline {r.pipeline} · {r.latencyMs.toFixed(1)} ms
        </p>
      </div>
      <section className="grid gap-4 md:grid-cols-2">
        <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <h2 className="mb-2 font-semibold">Gold</h2>
          <p>Paper: {d.gold.doi ?? d.gold.paperId ?? '— (unanswerable: the right answer is to abstain)'}</p>
          {d.gold.value && <p>Value: {d.gold.value}</p>}
          {d.gold.paragraphId && <p>Paragraph: {d.gold.paragraphId}</p>}
          {d.gold.evidence && <blockquote className="mt-2 border-l-4 border-amber-300 pl-3 text-slate-700">{d.gold.evidence}</blockquote>}
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <h2 className="mb-2 font-semibold">Outcome</h2>
          <ul className="space-y-1">
            {r.type === 'doi' && (
              <li>
                doi@1 {r.doiAt1 ? '✓' : '✗'} · doi@5 {r.doiAt5 ? '✓' : '✗'} · rank {r.rank ?? 'not retrieved'}
              </li>
            )}
            {r.paragraphAt5 !== null && <li>gold paragraph in top 5: {r.paragraphAt5 ? '✓' : '✗'}</li>}
            {r.valueAt3 !== null && <li>value@3: {r.valueAt3 ? '✓' : '✗'}</li>}
            {d.value && <li>extracted value: {d.value.text}</li>}
            <li>
              {d.abstention.abstain ? 'abstained' : 'answered'} (confidence {(d.abstention.calibrated ?? d.abstention.confidence).toFixed(2)}
              {d.abstention.reasons.length ? `; ${d.abstention.reasons.join(', ')}` : ''}): {d.abstention.explanation}
            </li>
          </ul>
        </div>
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">Papers returned</h2>
        <ol className="space-y-1 text-sm">
          {d.papers.map((p, i) => (
            <li key={i} className={isGold(p) ? 'font-semibold text-emerald-800' : ''}>
              {i + 1}.{' '}
              {p.paperId ? (
                <Link href={`/papers/${p.paperId}`} className="hover:underline">
                  {p.title ?? p.doi ?? p.sourceId}
                </Link>
              ) : (
                p.doi
              )}{' '}
              <span className="text-xs text-slate-500">{p.sourceId}</span> {isGold(p) && '← gold'}
            </li>
          ))}
        </ol>
      </section>
      <section className="space-y-2">
        <h2 className="font-semibold">Evidence</h2>
        {d.evidence.map((e) => {
          // Runs stored before the evidence model kept `externalIds` on the item itself.
          const ids = e.provenance ? externalIdsOf(e) : ((e as { externalIds?: string[] }).externalIds ?? []);
          const gold = !!d.gold.paragraphId && ids.includes(d.gold.paragraphId);
          return (
            <div key={e.id} className={`rounded-lg border bg-white p-3 text-sm ${gold ? 'border-emerald-400' : 'border-slate-200'}`}>
              <p className="mb-1 text-xs text-slate-500">
                {e.kind} {ids.join(', ')} · score {e.score.toFixed(4)}
                {e.coverage !== null && ` · covers ${(e.coverage * 100).toFixed(0)}%`}
                {gold && ' · gold paragraph'}
              </p>
              <p>{e.text}</p>
            </div>
          );
        })}
      </section>
      <details className="rounded-lg border border-slate-200 bg-white p-3" open>
        <summary className="cursor-pointer text-sm font-medium">Trace</summary>
        <TraceList trace={d.trace} />
      </details>
    </div>
  );
}
