import Link from 'next/link';
import { notFound } from 'next/navigation';
import { AutoRefresh } from '@/components/auto-refresh';
import { JobQueue } from '@/components/job-queue';
import { NeedsRole } from '@/components/needs-role';
import { currentViewer } from '@/app/current-viewer';
import { may } from '@/lib/services/access';
import { idParam } from '@/lib/common/params';
import { assignedGraders } from '@/lib/services/vocabulary';
import { campaignPage } from '@/lib/services/grading';
import { RUBRICS, type RubricId } from '@/lib/services/vocabulary';
import { continuePreparationAction, setCampaignOpenAction } from '../actions';

export const dynamic = 'force-dynamic';

export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  const viewer = await currentViewer();
  if (!may(viewer, 'grade')) return <NeedsRole needs="expert" what="Grading" signedIn={!!viewer.user} />;
  const id = idParam((await params).id);
  const admin = may(viewer, 'campaigns');
  const found = id ? await campaignPage(id, viewer, admin) : null;
  if (!found) notFound();
  const { campaign, queue, counts, progress } = found;
  const graderIds = campaign.graders.map((g) => g.userId);
  const total = campaign._count.items;
  // Items are numbered 0 … total − 1 when the campaign is created, so assignments follow from the count alone.
  const assigned = (userId: string) =>
    Array.from({ length: total }, (_, o) => o).filter((o) => assignedGraders(o, graderIds, campaign.gradersPerItem).includes(userId)).length;
  const rubric = RUBRICS[campaign.rubric as RubricId];
  const shownGraders = admin ? campaign.graders : campaign.graders.filter((g) => g.userId === viewer.user?.id);
  return (
    <div className="space-y-5">
      {campaign.status === 'preparing' && <AutoRefresh />}
      <div>
        <Link href="/grading" className="text-sm text-teal-800 hover:underline">
          ← Campaigns
        </Link>
        <h1 className="text-2xl font-semibold">{campaign.name}</h1>
        <p className="text-sm text-slate-600">
          {rubric.label} · {total} questions from {campaign.source} · {campaign.gradersPerItem} grader{campaign.gradersPerItem > 1 ? 's' : ''} per item
          {admin && ` · pipelines ${campaign.pipelines.join(', ')} · answer mode ${campaign.answerMode}`}
        </p>
        <p className="mt-1 text-sm" data-testid="campaign-status" data-status={campaign.status}>
          Status: <b>{campaign.status}</b>
          {campaign.status === 'preparing' &&
            (progress ? ` — answering ${progress.done} of ${progress.total}` : ' — waiting in the job queue (or stopped by a restart: continue below)')}
          {campaign.message && ` — ${campaign.message}`}
        </p>
      </div>
      {campaign.status === 'preparing' && <JobQueue />}
      {admin && (campaign.status === 'failed' || (campaign.status === 'preparing' && !progress)) && (
        <form action={continuePreparationAction}>
          <input type="hidden" name="campaign" value={campaign.id} />
          <button type="submit" className="rounded border border-slate-300 px-3 py-1 text-sm">
            Continue answering
          </button>
        </form>
      )}
      <section className="space-y-2">
        <h2 className="text-lg font-medium">Progress</h2>
        {shownGraders.map((g) => {
          const n = assigned(g.userId);
          const done = counts.get(g.userId) ?? 0;
          return (
            <div key={g.userId} className="flex items-center gap-3 text-sm" data-testid="grader-progress">
              <span className="w-64 truncate">{g.user.name}</span>
              <div
                className="h-2 w-64 overflow-hidden rounded bg-slate-200"
                role="progressbar"
                aria-label={`Progress of ${g.user.name}`}
                aria-valuemin={0}
                aria-valuemax={n}
                aria-valuenow={done}
              >
                <div className="h-full bg-teal-600" style={{ width: `${n ? (100 * Math.min(done, n)) / n : 0}%` }} />
              </div>
              <span>
                {done} of {n}
              </span>
            </div>
          );
        })}
      </section>
      <div className="flex flex-wrap gap-3">
        {queue.length > 0 && (campaign.status === 'open' || campaign.status === 'closed') && (
          <Link href={`/grading/${campaign.id}/grade`} className="rounded bg-teal-700 px-4 py-1.5 text-sm font-medium text-white">
            {campaign.status === 'open' ? 'Grade' : 'See your grades'}
          </Link>
        )}
        {(admin || campaign.status === 'closed') && campaign.status !== 'preparing' && (
          <Link href={`/grading/${campaign.id}/results`} className="rounded border border-slate-300 px-3 py-1.5 text-sm">
            Results
          </Link>
        )}
        {admin && (
          <>
            <a href={`/api/grading/${campaign.id}/export?format=csv`} className="rounded border border-slate-300 px-3 py-1.5 text-sm" download>
              Export CSV
            </a>
            <a href={`/api/grading/${campaign.id}/export?format=json`} className="rounded border border-slate-300 px-3 py-1.5 text-sm" download>
              Export JSON
            </a>
          </>
        )}
        {admin && (campaign.status === 'open' || campaign.status === 'closed') && (
          <form action={setCampaignOpenAction}>
            <input type="hidden" name="campaign" value={campaign.id} />
            <input type="hidden" name="open" value={campaign.status === 'closed' ? 'true' : 'false'} />
            <button type="submit" className="rounded border border-slate-300 px-3 py-1.5 text-sm">
              {campaign.status === 'closed' ? 'Open again' : 'Close campaign'}
            </button>
          </form>
        )}
      </div>
      {!admin && campaign.status === 'open' && (
        <p className="text-xs text-slate-600">Results and other graders’ grades are shown when the campaign is closed.</p>
      )}
    </div>
  );
}
