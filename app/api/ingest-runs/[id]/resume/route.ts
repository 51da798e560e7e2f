import { guarded } from '@/lib/services/access';
import { AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { resumeImport } from '@/lib/services/imports';

export const dynamic = 'force-dynamic';

/** POST: completes an interrupted import run from the stage it stopped in → 202 {runId}. */
export const POST = guarded(
  'import',
  async (_request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const id = idParam((await ctx.params).id);
    if (!id) throw new AppError('not-found', 'no such import run');
    await resumeImport(id);
    return Response.json({ runId: id }, { status: 202 });
  },
  'resume import',
);
