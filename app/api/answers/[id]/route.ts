import { guarded } from '@/lib/services/access';
import { AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { storedAnswer } from '@/lib/services/answers';

export const dynamic = 'force-dynamic';

/** GET → a stored answer, as it was given. */
export const GET = guarded(
  'read',
  async (_request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const id = idParam((await ctx.params).id);
    if (!id) throw new AppError('not-found', 'no such answer');
    const answer = await storedAnswer(id);
    if (!answer) throw new AppError('not-found', 'no such answer');
    return Response.json({ answer });
  },
  'stored answer',
);
