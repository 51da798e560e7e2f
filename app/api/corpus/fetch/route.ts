import { guarded } from '@/lib/services/access';
import { downloadStarterCorpus } from '@/lib/services/imports';
import type { StarterCorpusResponse } from './contract';

export const dynamic = 'force-dynamic';

/** Starts downloading the open-access starter corpus; progress and failure are on the returned run. */
export const POST = guarded(
  'import',
  async () => {
    return Response.json({ runId: await downloadStarterCorpus() } satisfies StarterCorpusResponse, { status: 202 });
  },
  'starter corpus',
);
