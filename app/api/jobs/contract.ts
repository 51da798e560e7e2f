import type { Json } from '@/lib/common/contract';
import type { publicJobs, queuedJobs } from '@/lib/services/jobs';

/** GET /api/jobs (no input) → {jobs}: the shared job queue (an admin's view with labels and owners, anybody else's without). */
export type JobsResponse = Json<{ jobs: Awaited<ReturnType<typeof queuedJobs>> | Awaited<ReturnType<typeof publicJobs>> }>;
