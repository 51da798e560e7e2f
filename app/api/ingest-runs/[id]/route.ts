import { guarded } from '@/lib/auth/guard';
import { AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { getDatabase } from '@/lib/db/client';
import { pathRoots } from '@/lib/common/public-path';
import { config } from '@/lib/config';
import { getRun, publicRun } from '@/lib/db/ingest-runs';

export const dynamic = 'force-dynamic';

export const GET = guarded(
  'import',
  async (_request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const id = idParam((await ctx.params).id);
    if (!id) throw new AppError('not-found', 'no such import run');
    const db = await getDatabase();
    const run = await getRun(db.prisma, id);
    if (!run) throw new AppError('not-found', 'no such import run');
    return Response.json({ run: publicRun(run, pathRoots(config())) });
  },
  'import run',
);
