import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { evaluationOverview, startEvaluation } from '@/lib/services/evaluation';
import { PIPELINES } from '@/lib/services/vocabulary';
import { type StartEvaluationResponse, startEvaluationContract } from './contract';

export const dynamic = 'force-dynamic';

export const GET = guarded('evaluations', async () => Response.json({ ...(await evaluationOverview()), pipelines: PIPELINES }));

/** POST {questionSet, pipelines, limit?} starts a stored evaluation run in the background → 202 {runId}. */
export const POST = guarded(
  'evaluate',
  async (request: Request) => {
    const { body } = await readInput(request, undefined, startEvaluationContract);
    return Response.json({ runId: await startEvaluation(body) } satisfies StartEvaluationResponse, { status: 202 });
  },
  'start evaluation',
);
