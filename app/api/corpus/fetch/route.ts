import { guarded } from '@/lib/auth/guard';

import { config } from '@/lib/config';
import { getDatabase } from '@/lib/db/client';
import { createRun } from '@/lib/db/ingest-runs';
import { canQueue, queueFull, startTracked } from '@/lib/common/background';
import { downloadAndIngestStarterCorpus } from '@/lib/corpus/starter';

export const dynamic = 'force-dynamic';

/** Starts downloading the open-access starter corpus; progress and failure are on the returned run. */
export const POST = guarded(
  'import',
  async (_request: Request) => {
    const cfg = config();
    const db = await getDatabase();
    if (!canQueue()) throw queueFull();
    const run = await createRun(db.prisma, 'fetch', [`Europe PMC: ${cfg.starterQuery}`], 'queued');
    startTracked(run.id, (signal) => downloadAndIngestStarterCorpus(db, cfg, { runId: run.id, signal }), {
      kind: 'download',
      label: `starter corpus from Europe PMC (${cfg.starterSize} articles)`,
    });
    return Response.json({ runId: run.id }, { status: 202 });
  },
  'starter corpus',
);
