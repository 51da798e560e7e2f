import { readInput } from '@/lib/common/contract';
import { AppError } from '@/lib/common/errors';
import { guarded } from '@/lib/services/access';
import { evaluationRun } from '@/lib/services/evaluation';
import { evaluationRunContract } from './contract';

export const dynamic = 'force-dynamic';

export const GET = guarded(
  'evaluations',
  async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const { params } = await readInput(request, ctx, evaluationRunContract);
    const found = await evaluationRun(params.id);
    if (!found) throw new AppError('not-found', 'no such evaluation run');
    return Response.json(found);
  },
  'evaluation run',
);
