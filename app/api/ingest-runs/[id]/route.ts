import { AppError, handleErrors } from '@/lib/common/errors';
import { getDatabase } from '@/lib/db/client';
import { getRun } from '@/lib/db/ingest-runs';

export const dynamic = 'force-dynamic';

export const GET = handleErrors(async (_request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = await ctx.params;
  const db = await getDatabase();
  const run = await getRun(db.prisma, id);
  if (!run) throw new AppError('not-found', 'no such import run');
  return Response.json({ run });
}, 'import run');
