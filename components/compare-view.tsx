'use client';

import type { AskBody } from '@/app/api/answers/contract';
import { callApi } from './api-client';
import { useQueries } from '@tanstack/react-query';
import Link from 'next/link';
import { compareAnswers } from '@/lib/answer/compare';
import type { Answer } from '@/lib/answer/types';
import { paperOf } from '@/lib/evidence/model';
import { AnswerView } from './answer-view';

interface Stored {
  id: string;
  answer: Answer;
}

async function askOne(body: AskBody, signal: AbortSignal): Promise<Stored> {
  return callApi('POST /api/answers', { body }, { signal });
}

/**
 * Two or three pipelines answer the same question side by side: what differs first (which paper each leads with,
 * who abstains, what only one cites), then each answer in its column with its evidence, each evidence item saying
 * which other pipelines cite its paper. Each column loads, fails and retries on its own.
 */
export function CompareView({
  question,
  pipelines,
  descriptions,
  mode,
  filters,
}: {
  question: string;
  pipelines: NonNullable<AskBody['pipeline']>[];
  descriptions: Record<string, string>;
  mode: NonNullable<AskBody['mode']>;
  filters: NonNullable<AskBody['filters']>;
}) {
  const results = useQueries({
    queries: pipelines.map((pipeline) => ({
      queryKey: ['compare', question, pipeline, mode, filters],
      queryFn: ({ signal }: { signal: AbortSignal }) => askOne({ question, pipeline, mode, ...(Object.keys(filters).length ? { filters } : {}) }, signal),
      staleTime: Number.POSITIVE_INFINITY,
      retry: 0,
    })),
  });
  const done = results.flatMap((r, i) => (r.data ? [{ label: pipelines[i], answer: r.data.answer }] : []));
  const comparison = done.length >= 2 ? compareAnswers(done) : null;
  const citedBy = new Map(comparison?.papers.flat().map((p) => [p.key, p.citedBy]) ?? []);
  const pending = results.filter((r) => r.isPending).length;

  return (
    <div className="space-y-4">
      <section aria-label="Differences" className="rounded-lg border border-slate-200 bg-white p-3 text-sm" aria-busy={pending > 0}>
        <h2 className="mb-1 font-medium">Differences</h2>
        {comparison ? (
          <ul className="list-disc space-y-0.5 pl-5" data-testid="compare-summary">
            {comparison.summary.map((s) => (
              <li key={s}>{s}</li>
            ))}
            {comparison.summary.length === 0 && <li>The answers cite the same papers.</li>}
          </ul>
        ) : (
          <p role="status" className="text-slate-600">
            {pending ? `Waiting for ${pending} of ${pipelines.length} answers…` : 'Fewer than two answers arrived; retry the ones that failed.'}
          </p>
        )}
      </section>
      <div className={`grid gap-4 ${pipelines.length === 3 ? 'xl:grid-cols-3' : 'lg:grid-cols-2'}`}>
        {results.map((r, i) => (
          <section
            key={pipelines[i]}
            aria-label={`Answer by ${pipelines[i]}`}
            className="min-w-0 space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3"
            data-testid="compare-column"
          >
            <header>
              <h2 className="font-semibold">{pipelines[i]}</h2>
              <p className="text-xs text-slate-600">{descriptions[pipelines[i]]}</p>
            </header>
            {r.isPending && (
              <p role="status" className="text-sm text-slate-600">
                Answering with {pipelines[i]}…
              </p>
            )}
            {r.isError && (
              <div role="alert" className="flex items-center gap-2 rounded border border-red-300 bg-red-50 px-2 py-1 text-sm text-red-800">
                <span>{r.error.message}</span>
                <button type="button" className="rounded border border-red-300 px-2" onClick={() => void r.refetch()}>
                  Retry
                </button>
              </div>
            )}
            {r.data && (
              <>
                <Link href={`/answers/${r.data.id}`} className="text-xs text-teal-800 hover:underline">
                  Permanent link to this answer
                </Link>
                <AnswerView
                  answer={r.data.answer}
                  annotate={(e) => {
                    const p = paperOf(e);
                    const others = (citedBy.get(p?.doi ?? e.paperId ?? '') ?? []).filter((x) => x !== pipelines[i]);
                    if (!comparison) return null;
                    return others.length ? <span className="rounded bg-sky-100 px-1.5 text-sky-900">paper also cited by {others.join(', ')}</span> : null;
                  }}
                />
              </>
            )}
          </section>
        ))}
      </div>
    </div>
  );
}
