import type { Contract, Json } from '@/lib/common/contract';
import type { importRuns } from '@/lib/services/imports';

/** GET /api/ingest-runs → {runs}: the latest import runs, newest first. */
export const importRunsContract = {} satisfies Contract;
export type ImportRunsResponse = Json<{ runs: Awaited<ReturnType<typeof importRuns>> }>;
