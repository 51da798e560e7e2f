import { getDatabase } from '@/lib/db/client';
import { getRun } from '@/lib/db/ingest-runs';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const db = await getDatabase();
  const run = await getRun(db.prisma, id);
  if (!run) return Response.json({ error: 'no such import run' }, { status: 404 });
  return Response.json({ run });
}
