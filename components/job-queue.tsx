'use client';

import { callApi } from './api-client';
import { useQuery } from '@tanstack/react-query';
import type { BackgroundJob } from '@/lib/queue/queue';
import type { PublicJob } from '@/lib/services/jobs';

/** A job as /api/jobs gives it: with its label, owner and attempts for an admin, its kind and state for anybody else. */
type ShownJob = PublicJob & Partial<BackgroundJob>;

/**
 * The job queue as it is now, shared by every app process on the database: imports, downloads, evaluations and
 * campaign work run one at a time per process in the order asked, and the shards of background stages (the model's
 * embedding) after them; this says which are running (and in which process, when there are several) and what waits
 * behind them. Hidden when the queue is empty.
 */
export function JobQueue() {
  const jobs = useQuery({
    queryKey: ['jobs'],
    queryFn: async (): Promise<ShownJob[]> => {
      return (await callApi('GET /api/jobs', {}, { failure: 'the job queue could not be read' })).jobs;
    },
    refetchInterval: 2000,
  });
  if (jobs.isError) return <p className="text-sm text-red-700">{jobs.error.message}</p>;
  if (!jobs.data?.length) return null;
  // Shards waiting (a stage cut into dozens of jobs) are one line per kind, after the jobs users asked for.
  const shown = jobs.data.filter((j) => !(j.shard && j.state === 'queued'));
  const waitingShards = new Map<string, number>();
  for (const j of jobs.data) if (j.shard && j.state === 'queued') waitingShards.set(j.kind, (waitingShards.get(j.kind) ?? 0) + 1);
  return (
    <section aria-label="Job queue" className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="job-queue">
      <h2 className="mb-1 font-medium">Job queue (one job at a time per server process, in the order asked)</h2>
      <ol className="space-y-0.5">
        {shown.map((j, i) => (
          <li key={j.id ?? `${j.kind}-${j.since}-${i}`} data-state={j.state}>
            <span className={j.state === 'running' ? 'font-medium text-teal-800' : 'text-slate-600'}>
              {j.state === 'running' ? 'running' : `waiting (${shown.filter((w) => w.state === 'queued').indexOf(j) + 1})`}
            </span>{' '}
            · {j.kind}
            {j.label ? ` · ${j.label}` : ''}
            {j.state === 'running' && !j.here && j.owner && <span className="text-slate-500"> · in another server process ({j.owner})</span>}
            {(j.attempts ?? 0) > 1 && <span className="text-amber-700"> · attempt {j.attempts} (an earlier run was stopped)</span>}
          </li>
        ))}
        {[...waitingShards].map(([kind, count]) => (
          <li key={`shards-${kind}`} data-state="queued" data-testid="waiting-shards">
            <span className="text-slate-600">waiting</span> · {kind} · {count} shard{count === 1 ? '' : 's'} (taken by any server or <code>npm run worker</code>{' '}
            process, after every job asked for)
          </li>
        ))}
      </ol>
    </section>
  );
}
