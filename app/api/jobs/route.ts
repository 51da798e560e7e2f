import { backgroundJobs } from '@/lib/common/background';
import { handleErrors } from '@/lib/common/errors';

export const dynamic = 'force-dynamic';

/** GET → the server's job queue: the running job and those waiting, in the order they run. */
export const GET = handleErrors(async () => Response.json({ jobs: backgroundJobs() }), 'jobs');
