import { guarded } from '@/lib/auth/guard';
import { queuedJobs } from '@/lib/services/jobs';

export const dynamic = 'force-dynamic';

/** GET → the shared job queue: the jobs running (in every app process) and those waiting, in the order they run. */
export const GET = guarded('read', async () => Response.json({ jobs: await queuedJobs() }), 'jobs');
