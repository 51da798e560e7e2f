'use client';

import type { StartEvaluationBody } from '@/app/api/evaluation/runs/contract';
import { callApi } from './api-client';

type PipelineName = StartEvaluationBody['pipelines'][number];
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';

/** Starts an evaluation run on a configured question set and follows it until it finishes. */
export function EvaluationLauncher({
  questionSets,
  pipelines,
  runningIds,
}: {
  questionSets: string[];
  pipelines: { name: PipelineName; description: string }[];
  runningIds: string[];
}) {
  const router = useRouter();
  const [set, setSet] = useState(questionSets[0] ?? '');
  const [chosen, setChosen] = useState<PipelineName[]>(pipelines.map((p) => p.name));
  const [limit, setLimit] = useState('');
  const [incompleteSemantic, setIncompleteSemantic] = useState(false);
  const [started, setStarted] = useState<string[]>([]);
  const start = useMutation({
    mutationFn: async () => {
      const body = { questionSet: set, pipelines: chosen, ...(limit ? { limit: Number(limit) } : {}), ...(incompleteSemantic ? { incompleteSemantic } : {}) };
      return (await callApi('POST /api/evaluation/runs', { body }, { failure: 'the evaluation could not start' })).runId;
    },
    onSuccess: (id) => {
      setStarted((s) => [...s, id]);
      router.refresh();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate();
  };
  if (questionSets.length === 0) {
    return (
      <p className="rounded border border-slate-200 bg-white p-4 text-sm text-slate-700">
        No question sets are configured. Set <code>ASSAY_QUESTIONS</code> to question files or a folder of them (for example{' '}
        <code>ASSAY_QUESTIONS=../shared/data</code>), or run <code>npm run eval -- --questions &lt;file&gt;</code>: CLI runs appear here too.
      </p>
    );
  }
  const following = [...new Set([...runningIds, ...started])];
  return (
    <form onSubmit={submit} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="New evaluation run">
      <div className="flex flex-wrap items-center gap-4">
        <label className="text-sm">
          Questions{' '}
          <select value={set} onChange={(e) => setSet(e.target.value)} className="rounded border border-slate-300 px-2 py-1 text-sm" aria-label="Question set">
            {questionSets.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          First{' '}
          <input
            value={limit}
            onChange={(e) => setLimit(e.target.value.replace(/\D/g, ''))}
            placeholder="all"
            className="w-20 rounded border border-slate-300 px-2 py-1 text-sm"
            aria-label="Question limit"
          />{' '}
          questions
        </label>
        <label
          className="flex items-center gap-1 text-sm"
          title="While the embedding model is still embedding the corpus, dense search runs on the n-gram stand-in: such a run is refused unless this is ticked"
        >
          <input type="checkbox" checked={incompleteSemantic} onChange={(e) => setIncompleteSemantic(e.target.checked)} />
          score while semantic search is incomplete
        </label>
        <button
          type="submit"
          disabled={start.isPending || chosen.length === 0 || !set}
          className="ml-auto rounded bg-teal-700 px-4 py-1.5 text-sm font-medium text-white disabled:opacity-50"
        >
          Run evaluation
        </button>
      </div>
      <fieldset className="flex flex-wrap gap-3">
        <legend className="sr-only">Pipelines</legend>
        {pipelines.map((p) => (
          <label key={p.name} className="flex items-center gap-1 text-sm" title={p.description}>
            <input
              type="checkbox"
              checked={chosen.includes(p.name)}
              onChange={(e) => setChosen((c) => (e.target.checked ? [...c, p.name] : c.filter((x) => x !== p.name)))}
            />
            {p.name}
          </label>
        ))}
      </fieldset>
      {start.error && (
        <p role="alert" className="text-sm text-red-700">
          {(start.error as Error).message}
        </p>
      )}
      {following.map((id) => (
        <RunProgress key={id} runId={id} />
      ))}
    </form>
  );
}

function RunProgress({ runId }: { runId: string }) {
  const router = useRouter();
  const { data } = useQuery({
    queryKey: ['evaluation-run', runId],
    queryFn: async () => {
      return callApi('GET /api/evaluation/runs/[id]', { params: { id: runId } });
    },
    refetchInterval: (q) => (q.state.data?.run.status === 'running' || !q.state.data ? 1000 : false),
  });
  const status = data?.run.status;
  useEffect(() => {
    if (status && status !== 'running') router.refresh();
  }, [status, router]);
  if (!data || status !== 'running') return null;
  const p = data.progress;
  const pct = p?.total ? Math.round((100 * p.done) / p.total) : 0;
  return (
    <div className="text-sm text-slate-700" role="status">
      Run {runId.slice(-6)}:{' '}
      {p?.stage === 'indexing' ? 'building the retrieval index…' : p?.stage === 'running' ? `${p.done} of ${p.total} question–pipeline pairs` : 'starting…'}
      <div className="mt-1 h-2 w-full rounded bg-slate-100">
        <div className="h-2 rounded bg-teal-600" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
