import { notFound, redirect } from 'next/navigation';
import { GradingScreen } from '@/components/grading-screen';
import { NeedsRole } from '@/components/needs-role';
import { currentViewer } from '@/app/current-viewer';
import { may } from '@/lib/auth/viewer';
import { AppError } from '@/lib/common/errors';
import { idParam, pageParam } from '@/lib/common/params';
import { getCampaign } from '@/lib/db/campaigns';
import { getDatabase } from '@/lib/db/client';
import { graderItemView, graderQueue } from '@/lib/grading/grader-view';

export const dynamic = 'force-dynamic';

/** /grading/<id>/grade?item=N: the grading screen at item N of the campaign (default: the grader’s first not submitted). */
export default async function GradePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ item?: string }> }) {
  const viewer = await currentViewer();
  if (!may(viewer, 'grade')) return <NeedsRole needs="expert" what="Grading" signedIn={!!viewer.user} />;
  const id = idParam((await params).id);
  const db = await getDatabase();
  const campaign = id ? await getCampaign(db, id) : null;
  if (!campaign) notFound();
  if (campaign.status === 'preparing' || campaign.status === 'failed') redirect(`/grading/${campaign.id}`);
  const sp = await searchParams;
  let ordinal: number;
  if (sp.item) ordinal = pageParam(sp.item) - 1;
  else {
    const queue = await graderQueue(db, campaign, viewer);
    const next = queue.find((q) => q.state !== 'submitted') ?? queue[0];
    if (!next) return <p className="text-sm text-slate-600">You are not a grader of this campaign.</p>;
    ordinal = next.ordinal;
  }
  try {
    return <GradingScreen key={`${campaign.id}:${ordinal}`} view={await graderItemView(db, campaign.id, ordinal, viewer)} />;
  } catch (error) {
    if (error instanceof AppError) return <p className="text-sm text-red-800">{error.message}</p>;
    throw error;
  }
}
