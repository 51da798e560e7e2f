import { AppError, handleErrors } from '@/lib/common/errors';
import { getDatabase } from '@/lib/db/client';
import { getEvaluationRun } from '@/lib/db/evaluation-runs';
import { evaluationProgress } from '@/lib/evaluation/background';

export const dynamic = 'force-dynamic';

export const GET = handleErrors(async (_request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = await ctx.params;
  const db = await getDatabase();
  const run = await getEvaluationRun(db, id);
  if (!run) throw new AppError('not-found', 'no such evaluation run');
  return Response.json({ run, progress: evaluationProgress(id) });
}, 'evaluation run');
