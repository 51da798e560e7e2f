import { guarded } from '@/lib/services/access';
import { importRuns } from '@/lib/services/imports';

export const dynamic = 'force-dynamic';

export const GET = guarded('import', async () => Response.json({ runs: await importRuns(20) }));
