import { guarded } from '@/lib/auth/guard';
import { badRequest, notFound } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { getDatabase } from '@/lib/db/client';
import { campaignItemsWithGrades, getCampaign } from '@/lib/db/campaigns';
import { campaignCsv, campaignJson } from '@/lib/grading/export';

export const dynamic = 'force-dynamic';

/** GET ?format=csv|json: the campaign's grades, answers, citations and evidence ids, as a download (admin). */
export const GET = guarded(
  'campaigns',
  async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const id = idParam((await ctx.params).id);
    const format = new URL(request.url).searchParams.get('format') ?? 'csv';
    if (!id) throw badRequest('no campaign id');
    if (format !== 'csv' && format !== 'json') throw badRequest('format is csv or json');
    const db = await getDatabase();
    const campaign = await getCampaign(db, id);
    if (!campaign) throw notFound('no such campaign');
    const items = await campaignItemsWithGrades(db, id);
    const meta = { id: campaign.id, name: campaign.name, rubric: campaign.rubric, pipelines: campaign.pipelines, status: campaign.status };
    const file = `campaign-${campaign.id}.${format}`;
    const disposition = `attachment; filename="${file}"`;
    return format === 'csv'
      ? new Response(campaignCsv(meta, items), { headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': disposition } })
      : new Response(JSON.stringify(campaignJson(meta, items), null, 2), {
          headers: { 'content-type': 'application/json', 'content-disposition': disposition },
        });
  },
  'export campaign',
);
