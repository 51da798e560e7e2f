import { guarded } from '@/lib/auth/guard';
import { AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { config } from '@/lib/config';
import { getDatabase } from '@/lib/db/client';
import { getRun } from '@/lib/db/ingest-runs';
import { resumeInBackground } from '@/lib/jobs/background';

export const dynamic = 'force-dynamic';

/** POST: completes an interrupted import run from the stage it stopped in → 202 {runId}. */
export const POST = guarded(
  'import',
  async (_request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const id = idParam((await ctx.params).id);
    if (!id) throw new AppError('not-found', 'no such import run');
    const db = await getDatabase();
    const run = await getRun(db.prisma, id, 0);
    if (!run) throw new AppError('not-found', 'no such import run');
    if (run.status !== 'interrupted') throw new AppError('conflict', `the run is ${run.status}; only an interrupted run can be resumed`);
    if (!(await resumeInBackground(db, config(), id))) throw new AppError('conflict', 'the run was resumed already');
    return Response.json({ runId: id }, { status: 202 });
  },
  'resume import',
);
