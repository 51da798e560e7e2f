import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { campaignExport } from '@/lib/services/grading';
import { campaignExportContract } from './contract';

export const dynamic = 'force-dynamic';

/** GET ?format=csv|json: the campaign's grades, answers, citations and evidence ids, as a download (admin). */
export const GET = guarded(
  'campaigns',
  async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const { params, query } = await readInput(request, ctx, campaignExportContract);
    const out = await campaignExport(params.id, query.format);
    return new Response(out.body, { headers: { 'content-type': out.type, 'content-disposition': `attachment; filename="${out.file}"` } });
  },
  'export campaign',
);
