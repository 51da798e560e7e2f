import { guarded } from '@/lib/services/access';
import { downloadStarterCorpus } from '@/lib/services/imports';

export const dynamic = 'force-dynamic';

/** Starts downloading the open-access starter corpus; progress and failure are on the returned run. */
export const POST = guarded('import', async (_request: Request) => Response.json({ runId: await downloadStarterCorpus() }, { status: 202 }), 'starter corpus');
