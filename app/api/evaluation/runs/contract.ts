import { z } from 'zod';
import type { Contract, Json } from '@/lib/common/contract';
import { plainText } from '@/lib/common/params';
import type { evaluationOverview } from '@/lib/services/evaluation';
import { PIPELINES } from '@/lib/services/vocabulary';

/** GET /api/evaluation/runs (no input) → the stored runs and the pipelines one may evaluate. */
export type EvaluationRunsResponse = Json<Awaited<ReturnType<typeof evaluationOverview>> & { pipelines: typeof PIPELINES }>;

/** POST /api/evaluation/runs {questionSet, pipelines, limit?} → 202 {runId}: a stored evaluation run, in the background. */
export const startEvaluationContract = {
  body: z.object({
    questionSet: plainText(200, 'the question set').pipe(z.string().min(1, 'name a question set')),
    pipelines: z.array(z.enum(PIPELINES)).min(1, 'choose at least one pipeline'),
    limit: z.number().int().positive().max(100_000).optional(),
    /** Score even while the embedding model is still embedding the corpus (refused otherwise). */
    incompleteSemantic: z.boolean().optional(),
  }),
} satisfies Contract;
export type StartEvaluationBody = z.input<typeof startEvaluationContract.body>;
export interface StartEvaluationResponse {
  runId: string;
}
