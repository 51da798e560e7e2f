import { guarded } from '@/lib/auth/guard';
import { backgroundJobs } from '@/lib/common/background';

export const dynamic = 'force-dynamic';

/** GET → the server's job queue: the running job and those waiting, in the order they run. */
export const GET = guarded('read', async () => Response.json({ jobs: backgroundJobs() }), 'jobs');
