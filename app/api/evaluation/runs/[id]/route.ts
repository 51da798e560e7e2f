import { guarded } from '@/lib/services/access';
import { AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { evaluationRun } from '@/lib/services/evaluation';

export const dynamic = 'force-dynamic';

export const GET = guarded(
  'read',
  async (_request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const id = idParam((await ctx.params).id);
    const found = id ? await evaluationRun(id) : null;
    if (!found) throw new AppError('not-found', 'no such evaluation run');
    return Response.json(found);
  },
  'evaluation run',
);
