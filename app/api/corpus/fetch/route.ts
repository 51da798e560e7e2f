import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { downloadStarterCorpus } from '@/lib/services/imports';
import { type StarterCorpusResponse, starterCorpusContract } from './contract';

export const dynamic = 'force-dynamic';

/** Starts downloading the open-access starter corpus; progress and failure are on the returned run. */
export const POST = guarded(
  'import',
  async (request: Request) => {
    await readInput(request, undefined, starterCorpusContract);
    return Response.json({ runId: await downloadStarterCorpus() } satisfies StarterCorpusResponse, { status: 202 });
  },
  'starter corpus',
);
