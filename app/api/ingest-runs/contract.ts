import type { Json } from '@/lib/common/contract';
import type { importRuns } from '@/lib/services/imports';

/** GET /api/ingest-runs (no input) → {runs}: the latest import runs, newest first. */
export type ImportRunsResponse = Json<{ runs: Awaited<ReturnType<typeof importRuns>> }>;
