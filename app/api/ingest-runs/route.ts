import { getDatabase } from '@/lib/db/client';
import { listRuns } from '@/lib/db/ingest-runs';

export const dynamic = 'force-dynamic';

export async function GET() {
  const db = await getDatabase();
  return Response.json({ runs: await listRuns(db.prisma, 20) });
}
