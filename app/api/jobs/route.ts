import { readInput } from '@/lib/common/contract';
import { guarded, may } from '@/lib/services/access';
import { publicJobs, queuedJobs } from '@/lib/services/jobs';
import { jobsContract } from './contract';

export const dynamic = 'force-dynamic';

/**
 * GET → the shared job queue: the jobs running (in every app process) and those waiting, in the order they run. An
 * admin sees each job's label (its files), owner process and attempts; anybody else what the public import banner
 * shows: the kind and state of each, no file name, host, process or id.
 */
export const GET = guarded(
  'read',
  async (request: Request, _context: unknown, viewer) => {
    await readInput(request, undefined, jobsContract);
    return Response.json({ jobs: may(viewer, 'import') ? await queuedJobs() : await publicJobs() });
  },
  'jobs',
);
