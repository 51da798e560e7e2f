import { guarded } from '@/lib/services/access';
import { badRequest } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { campaignExport } from '@/lib/services/grading';

export const dynamic = 'force-dynamic';

/** GET ?format=csv|json: the campaign's grades, answers, citations and evidence ids, as a download (admin). */
export const GET = guarded(
  'campaigns',
  async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const id = idParam((await ctx.params).id);
    const format = new URL(request.url).searchParams.get('format') ?? 'csv';
    if (!id) throw badRequest('no campaign id');
    if (format !== 'csv' && format !== 'json') throw badRequest('format is csv or json');
    const out = await campaignExport(id, format);
    return new Response(out.body, { headers: { 'content-type': out.type, 'content-disposition': `attachment; filename="${out.file}"` } });
  },
  'export campaign',
);
