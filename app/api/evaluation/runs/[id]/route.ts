import { getDatabase } from '@/lib/db/client';
import { getEvaluationRun } from '@/lib/db/evaluation-runs';
import { evaluationProgress } from '@/lib/evaluation/background';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const db = await getDatabase();
  const run = await getEvaluationRun(db, id);
  if (!run) return Response.json({ error: 'no such evaluation run' }, { status: 404 });
  return Response.json({ run, progress: evaluationProgress(id) });
}
