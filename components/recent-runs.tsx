'use client';

import { callApi } from './api-client';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { RunStatus } from './run-status';

/** The latest import runs (CLI, uploads, first-start import, downloads); click one to see its details. */
export function RecentRuns() {
  // undefined: nothing chosen yet, so the first interrupted run is shown open with its Resume button (and stays
  // open while it resumes).
  const [chosen, setOpen] = useState<string | null | undefined>(undefined);
  const autoOpen = useRef<string | null | undefined>(undefined);
  const { data, error } = useQuery({
    queryKey: ['ingest-runs'],
    queryFn: async () => {
      return (await callApi('GET /api/ingest-runs')).runs;
    },
    refetchInterval: 3000,
  });
  if (error) return <p className="text-sm text-red-700">Could not load recent imports.</p>;
  if (!data) return <p className="text-sm text-slate-600">Loading…</p>;
  if (data.length === 0) return <p className="text-sm text-slate-600">No imports yet.</p>;
  // The first interrupted run is opened as soon as one is listed, also when it becomes interrupted after the page
  // loaded (a restarted server settles the runs its predecessor left after its first requests), and stays open.
  if (!autoOpen.current) autoOpen.current = data.find((r) => r.status === 'interrupted')?.id ?? null;
  const open = chosen === undefined ? autoOpen.current : chosen;
  return (
    <ul className="space-y-2" data-testid="recent-runs">
      {data.map((r) => (
        <li key={r.id} className="rounded-lg border border-slate-200 bg-white">
          <button
            type="button"
            className="flex w-full items-center justify-between gap-3 px-3 py-2 text-left text-sm"
            onClick={() => setOpen(open === r.id ? null : r.id)}
          >
            <span className="truncate">
              <span className="font-medium">{new Date(r.startedAt).toLocaleString()}</span> · {r.trigger} · {r.inputs.slice(0, 3).join(', ')}
              {r.inputs.length > 3 ? ` +${r.inputs.length - 3}` : ''}
            </span>
            <span className="shrink-0 text-xs text-slate-600">
              {r.status} · {r.papersAdded + r.papersUpdated} papers · {r.recordsAdded} records · {r.errorCount} errors
            </span>
          </button>
          {open === r.id ? (
            <div className="border-t border-slate-100 p-3">
              <RunStatus runId={r.id} />
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
