import { type Contract, idParams, type Json } from '@/lib/common/contract';
import type { evaluationRun } from '@/lib/services/evaluation';

/** GET /api/evaluation/runs/[id] → the run and its progress. */
export const evaluationRunContract = { params: idParams, notFound: 'evaluation run' } satisfies Contract;
export type EvaluationRunResponse = Json<NonNullable<Awaited<ReturnType<typeof evaluationRun>>>>;
