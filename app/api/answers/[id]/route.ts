import { AppError } from '@/lib/common/errors';
import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { storedAnswer } from '@/lib/services/answers';
import { storedAnswerContract } from './contract';

export const dynamic = 'force-dynamic';

/** GET → a stored answer, as it was given. */
export const GET = guarded(
  'read',
  async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const { params } = await readInput(request, ctx, storedAnswerContract);
    const answer = await storedAnswer(params.id);
    if (!answer) throw new AppError('not-found', 'no such answer');
    return Response.json({ answer });
  },
  'stored answer',
);
