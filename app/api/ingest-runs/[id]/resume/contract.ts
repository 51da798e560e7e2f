import { type Contract, idParams } from '@/lib/common/contract';

/** POST /api/ingest-runs/[id]/resume → 202 {runId}: an interrupted import run completed from the stage it stopped in. */
export const resumeImportContract = { params: idParams, notFound: 'import run' } satisfies Contract;
export interface ResumeImportResponse {
  runId: string;
}
