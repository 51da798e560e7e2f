import { guarded } from '@/lib/auth/guard';
import { AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { getDatabase } from '@/lib/db/client';
import { getEvaluationRun, publicEvaluationRun } from '@/lib/db/evaluation-runs';
import { pathRoots } from '@/lib/common/public-path';
import { config } from '@/lib/config';
import { evaluationProgress } from '@/lib/evaluation/background';

export const dynamic = 'force-dynamic';

export const GET = guarded(
  'read',
  async (_request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const id = idParam((await ctx.params).id);
    if (!id) throw new AppError('not-found', 'no such evaluation run');
    const db = await getDatabase();
    const run = await getEvaluationRun(db, id);
    if (!run) throw new AppError('not-found', 'no such evaluation run');
    return Response.json({ run: publicEvaluationRun(run, pathRoots(config())), progress: evaluationProgress(id) });
  },
  'evaluation run',
);
