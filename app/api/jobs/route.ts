import { guarded, may } from '@/lib/services/access';
import { publicJobs, queuedJobs } from '@/lib/services/jobs';

export const dynamic = 'force-dynamic';

/**
 * GET → the shared job queue: the jobs running (in every app process) and those waiting, in the order they run. An
 * admin sees each job's label (its files), owner process and attempts; anybody else what the public import banner
 * shows: the kind and state of each, no file name, host, process or id.
 */
export const GET = guarded(
  'read',
  async (_request: Request, _context: unknown, viewer) => Response.json({ jobs: may(viewer, 'import') ? await queuedJobs() : await publicJobs() }),
  'jobs',
);
