import { type Contract, idParams, type Json } from '@/lib/common/contract';
import type { importRun } from '@/lib/services/imports';

/** GET /api/ingest-runs/[id] → {run}: an import run, its stages, counts and errors. */
export const importRunContract = { params: idParams, notFound: 'import run' } satisfies Contract;
export type ImportRunResponse = Json<{ run: NonNullable<Awaited<ReturnType<typeof importRun>>> }>;
