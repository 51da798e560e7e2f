import { guarded } from '@/lib/services/access';
import { AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { importRun } from '@/lib/services/imports';

export const dynamic = 'force-dynamic';

export const GET = guarded(
  'import',
  async (_request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const id = idParam((await ctx.params).id);
    const run = id ? await importRun(id) : null;
    if (!run) throw new AppError('not-found', 'no such import run');
    return Response.json({ run });
  },
  'import run',
);
