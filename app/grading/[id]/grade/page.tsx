import { notFound, redirect } from 'next/navigation';
import { GradingScreen } from '@/components/grading-screen';
import { NeedsRole } from '@/components/needs-role';
import { currentViewer } from '@/app/current-viewer';
import { may } from '@/lib/services/access';
import { AppError } from '@/lib/common/errors';
import { idParam, pageParam } from '@/lib/common/params';
import { gradingScreen } from '@/lib/services/grading';

export const dynamic = 'force-dynamic';

/** /grading/<id>/grade?item=N: the grading screen at item N of the campaign (default: the grader’s first not submitted). */
export default async function GradePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ item?: string }> }) {
  const viewer = await currentViewer();
  if (!may(viewer, 'grade')) return <NeedsRole needs="expert" what="Grading" signedIn={!!viewer.user} />;
  const id = idParam((await params).id);
  const sp = await searchParams;
  const screen = id
    ? await gradingScreen(id, viewer, sp.item ? pageParam(sp.item) - 1 : null).catch((error) => {
        if (error instanceof AppError) return { kind: 'refused' as const, message: error.message };
        throw error;
      })
    : { kind: 'missing' as const };
  if (screen.kind === 'missing') notFound();
  if (screen.kind === 'not-ready') redirect(`/grading/${screen.campaignId}`);
  if (screen.kind === 'not-a-grader') return <p className="text-sm text-slate-600">You are not a grader of this campaign.</p>;
  if (screen.kind === 'refused') return <p className="text-sm text-red-800">{screen.message}</p>;
  return <GradingScreen key={`${screen.campaignId}:${screen.ordinal}`} view={screen.view} />;
}
