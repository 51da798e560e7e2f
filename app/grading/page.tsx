import Link from 'next/link';
import { NeedsRole } from '@/components/needs-role';
import { currentViewer } from '@/app/current-viewer';
import { may } from '@/lib/services/access';
import { campaignsFor } from '@/lib/services/grading';
import { RUBRICS, type RubricId } from '@/lib/services/vocabulary';

export const dynamic = 'force-dynamic';

export default async function GradingPage() {
  const viewer = await currentViewer();
  if (!may(viewer, 'grade')) return <NeedsRole needs="expert" what="Grading" signedIn={!!viewer.user} />;
  const admin = may(viewer, 'campaigns');
  const campaigns = await campaignsFor(viewer, admin);
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-4">
        <h1 className="text-2xl font-semibold">Grading campaigns</h1>
        {admin && (
          <Link href="/grading/new" className="ml-auto rounded bg-teal-700 px-3 py-1.5 text-sm font-medium text-white">
            New campaign
          </Link>
        )}
      </div>
      <p className="text-sm text-slate-600">
        Experts grade answers blind (pipelines hidden, order shuffled per grader); every answer is generated and stored before grading opens, so all graders see
        the same answers. {admin ? 'You see every campaign.' : 'You see the campaigns you grade.'}
      </p>
      {campaigns.length === 0 ? (
        <p className="text-sm text-slate-600">No campaigns yet.</p>
      ) : (
        <table className="w-full border-collapse text-sm" aria-label="Campaigns">
          <thead>
            <tr className="border-b border-slate-300 text-left text-slate-600">
              <th className="py-2">Name</th>
              <th>Rubric</th>
              <th>Items</th>
              <th>Graders</th>
              <th>Status</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {campaigns.map((c) => (
              <tr key={c.id} className="border-b border-slate-100">
                <td className="py-2">
                  <Link href={`/grading/${c.id}`} className="text-teal-800 hover:underline">
                    {c.name}
                  </Link>
                </td>
                <td>{RUBRICS[c.rubric as RubricId]?.label ?? c.rubric}</td>
                <td>{c._count.items}</td>
                <td>{c._count.graders}</td>
                <td>{c.status}</td>
                <td>{c.createdAt.toISOString().slice(0, 16).replace('T', ' ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
