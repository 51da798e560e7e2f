import type { Contract } from '@/lib/common/contract';

/** POST /api/corpus/fetch (no body) → 202 {runId}: the starter corpus's download, followed on its run. */
export const starterCorpusContract = {} satisfies Contract;
export interface StarterCorpusResponse {
  runId: string;
}
