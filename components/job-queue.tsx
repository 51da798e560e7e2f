'use client';

import { useQuery } from '@tanstack/react-query';
import type { BackgroundJob } from '@/lib/common/background';

/**
 * The server's job queue as it is now: imports, downloads and evaluations run one at a time in the order asked;
 * this says which one is running and what waits behind it. Hidden when the queue is empty.
 */
export function JobQueue() {
  const jobs = useQuery({
    queryKey: ['jobs'],
    queryFn: async (): Promise<BackgroundJob[]> => {
      const res = await fetch('/api/jobs');
      if (!res.ok) throw new Error(`the job queue could not be read (${res.status})`);
      return (await res.json()).jobs;
    },
    refetchInterval: 2000,
  });
  if (jobs.isError) return <p className="text-sm text-red-700">{jobs.error.message}</p>;
  if (!jobs.data?.length) return null;
  return (
    <section aria-label="Job queue" className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="job-queue">
      <h2 className="mb-1 font-medium">Job queue (one job at a time, in the order asked)</h2>
      <ol className="space-y-0.5">
        {jobs.data.map((j, i) => (
          <li key={j.id} data-state={j.state}>
            <span className={j.state === 'running' ? 'font-medium text-teal-800' : 'text-slate-600'}>
              {j.state === 'running' ? 'running' : `waiting (${i})`}
            </span>{' '}
            · {j.kind} · {j.label}
          </li>
        ))}
      </ol>
    </section>
  );
}
