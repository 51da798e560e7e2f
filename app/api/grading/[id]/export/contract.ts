import { z } from 'zod';
import { type Contract, idParams } from '@/lib/common/contract';

/** GET /api/grading/[id]/export?format=csv|json → the campaign's grades as a download (a file, not JSON to read). */
export const campaignExportContract = {
  params: idParams,
  notFound: 'campaign',
  query: z.object({ format: z.enum(['csv', 'json'], { error: 'format is csv or json' }).default('csv') }),
} satisfies Contract;
