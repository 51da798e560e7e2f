'use client';

import { callApi } from './api-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { RunCounters, StageState } from '@/lib/services/imports';

/** An import run as the API sends it (dates as strings). */
export interface RunView extends RunCounters {
  id: string;
  trigger: string;
  status: string;
  inputs: string[];
  message: string | null;
  startedAt: string;
  finishedAt: string | null;
  stages?: StageState[];
  attempts?: number;
  errors?: { id: string; file: string; location: string | null; reason: string }[];
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const active = (s: string | undefined) => s === 'running' || s === 'queued';

export function useRun(runId: string | null) {
  return useQuery({
    queryKey: ['ingest-run', runId],
    enabled: !!runId,
    queryFn: async () => {
      return (await callApi('GET /api/ingest-runs/[id]', { params: { id: runId! } })).run;
    },
    refetchInterval: (q) => (active(q.state.data?.status) || !q.state.data ? 700 : false),
  });
}

const statusStyle: Record<string, string> = {
  queued: 'bg-slate-100 text-slate-700',
  running: 'bg-sky-100 text-sky-800',
  succeeded: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
  interrupted: 'bg-amber-100 text-amber-800',
};

/** Live progress and per-file errors of one import run. */
export function RunStatus({ runId }: { runId: string }) {
  const { data: run, error } = useRun(runId);
  const queryClient = useQueryClient();
  const finished = run && !active(run.status);
  useEffect(() => {
    // A finished run changes the list of recent imports: refresh it now rather than at its next poll.
    if (finished) void queryClient.invalidateQueries({ queryKey: ['ingest-runs'] });
  }, [finished, queryClient]);
  if (error) return <p className="text-sm text-red-700">Could not load the import status: {(error as Error).message}</p>;
  if (!run) return <p className="text-sm text-slate-600">Starting…</p>;
  const pct = run.filesTotal ? Math.round((run.filesDone / run.filesTotal) * 100) : active(run.status) ? 0 : 100;
  const elapsed = ((run.finishedAt ? Date.parse(run.finishedAt) : Date.now()) - Date.parse(run.startedAt)) / 1000;
  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="run-status" data-status={run.status}>
      <div className="flex items-center justify-between gap-3">
        <span className={`rounded px-2 py-0.5 text-xs font-semibold uppercase ${statusStyle[run.status] ?? ''}`} data-testid="run-state">
          {run.status}
        </span>
        <span className="text-xs text-slate-500">{elapsed.toFixed(1)} s</span>
      </div>
      <div
        className="h-2 w-full overflow-hidden rounded bg-slate-100"
        role="progressbar"
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label="Files processed"
      >
        <div className="h-full bg-teal-600 transition-all" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-sm text-slate-700" data-testid="run-counts">
        {run.filesDone}/{run.filesTotal} files · {count(run.papersAdded, 'paper')} added, {run.papersUpdated} updated, {run.papersUnchanged} unchanged ·{' '}
        {count(run.recordsAdded, 'record')} added, {run.recordsUnchanged} unchanged · {count(run.errorCount, 'error')}
      </p>
      {run.stages && run.stages.length > 0 ? <StageList stages={run.stages} /> : null}
      {run.currentFile && active(run.status) ? <p className="truncate text-xs text-slate-500">Now: {run.currentFile}</p> : null}
      {run.status === 'interrupted' ? <ResumeButton runId={run.id} /> : null}
      {run.message ? <p className="text-sm text-slate-700">{run.message}</p> : null}
      {run.errors && run.errors.length > 0 ? (
        <div>
          <h3 className="text-sm font-medium text-red-800">Problems</h3>
          <ul className="mt-1 max-h-64 space-y-1 overflow-y-auto text-sm" data-testid="run-errors">
            {run.errors.map((e) => (
              <li key={e.id} className="rounded bg-red-50 px-2 py-1 text-red-900">
                <span className="font-medium">{e.file}</span>
                {e.location ? <span className="text-red-700"> ({e.location})</span> : null}: {e.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

const stageText: Record<string, string> = {
  import: 'import',
  structure: 'structuring',
  graph: 'knowledge graph',
  records: 'records index',
  index: 'retrieval index',
};
const stageStyle: Record<string, string> = {
  pending: 'bg-slate-100 text-slate-600',
  running: 'bg-sky-100 text-sky-800',
  done: 'bg-emerald-100 text-emerald-800',
  skipped: 'bg-slate-100 text-slate-500',
  failed: 'bg-red-100 text-red-800',
};

/** The job's stages (import → structuring → graph → retrieval index → records index) with their state and time. */
function StageList({ stages }: { stages: StageState[] }) {
  return (
    <ol className="flex flex-wrap items-center gap-1 text-xs" aria-label="Stages" data-testid="run-stages">
      {stages.map((s, i) => (
        <li key={s.name} className="flex items-center gap-1">
          {i > 0 && <span className="text-slate-400">→</span>}
          <span className={`rounded px-1.5 py-0.5 ${stageStyle[s.status] ?? ''}`} data-stage={s.name} data-stage-status={s.status}>
            {stageText[s.name] ?? s.name}: {s.status}
            {s.seconds ? ` (${s.seconds.toFixed(1)} s)` : ''}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Completes an interrupted run from the stage it stopped in (nothing is imported twice). */
export function ResumeButton({ runId }: { runId: string }) {
  const queryClient = useQueryClient();
  const resume = useMutation({
    mutationFn: async () => {
      await callApi('POST /api/ingest-runs/[id]/resume', { params: { id: runId }, body: {} });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['ingest-run', runId] });
      void queryClient.invalidateQueries({ queryKey: ['ingest-runs'] });
    },
  });
  return (
    <div className="flex items-center gap-3">
      <button
        type="button"
        onClick={() => resume.mutate()}
        disabled={resume.isPending}
        className="rounded bg-teal-700 px-3 py-1 text-sm font-medium text-white disabled:opacity-50"
      >
        {resume.isPending ? 'Resuming…' : 'Resume'}
      </button>
      {resume.error ? (
        <span role="alert" className="text-sm text-red-700">
          {(resume.error as Error).message}
        </span>
      ) : null}
    </div>
  );
}
