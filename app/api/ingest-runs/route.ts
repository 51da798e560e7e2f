import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { importRuns } from '@/lib/services/imports';
import { importRunsContract } from './contract';

export const dynamic = 'force-dynamic';

export const GET = guarded('import', async (request: Request) => {
  await readInput(request, undefined, importRunsContract);
  return Response.json({ runs: await importRuns(20) });
});
