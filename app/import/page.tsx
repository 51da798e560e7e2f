import { NeedsRole } from '@/components/needs-role';
import { may } from '@/lib/auth/viewer';
import { currentViewer } from '@/app/current-viewer';
import { config } from '@/lib/config';
import { ImportPanel } from '@/components/import-panel';
import { JobQueue } from '@/components/job-queue';
import { RecentRuns } from '@/components/recent-runs';

export const dynamic = 'force-dynamic';

export default async function ImportPage() {
  const viewer = await currentViewer();
  if (!may(viewer, 'import'))
    return (
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold">Import</h1>
        <NeedsRole needs="admin" what="Importing papers" signedIn={!!viewer.user} />
      </div>
    );
  const maxUploadMb = Math.round(config().maxUploadBytes / 1048576);
  return (
    <div className="space-y-8">
      <section className="space-y-3">
        <h1 className="text-2xl font-semibold">Import</h1>
        <p className="text-sm text-slate-600">
          Files are saved in the data folder first, then imported on the server. Re-importing the same file changes nothing; a different file claiming a stored
          paper's DOI replaces it and keeps the earlier text as a version on the paper's page; a file that cannot be read is reported and the others are still
          imported.
        </p>
        <ImportPanel maxUploadMb={maxUploadMb} />
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-medium">Recent imports</h2>
        <JobQueue />
        <RecentRuns />
      </section>
    </div>
  );
}
