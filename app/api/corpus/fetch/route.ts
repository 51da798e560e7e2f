import { guarded } from '@/lib/auth/guard';
import { config } from '@/lib/config';
import { startStarterDownload } from '@/lib/corpus/starter';
import { getDatabase } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

/** Starts downloading the open-access starter corpus; progress and failure are on the returned run. */
export const POST = guarded(
  'import',
  async (_request: Request) => Response.json({ runId: await startStarterDownload(await getDatabase(), config()) }, { status: 202 }),
  'starter corpus',
);
