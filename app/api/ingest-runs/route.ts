import { guarded } from '@/lib/auth/guard';
import { getDatabase } from '@/lib/db/client';
import { pathRoots } from '@/lib/common/public-path';
import { config } from '@/lib/config';
import { listRuns, publicRun } from '@/lib/db/ingest-runs';

export const dynamic = 'force-dynamic';

export const GET = guarded('import', async () => {
  const db = await getDatabase();
  const roots = pathRoots(config());
  return Response.json({ runs: (await listRuns(db.prisma, 20)).map((r) => publicRun(r, roots)) });
});
