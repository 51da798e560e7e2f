import { NeedsRole } from '@/components/needs-role';
import { may } from '@/lib/services/access';
import { currentViewer } from '@/app/current-viewer';
import { config } from '@/lib/config';
import { ImportPanel } from '@/components/import-panel';
import { JobQueue } from '@/components/job-queue';
import { RecentRuns } from '@/components/recent-runs';
import { importFormats } from '@/lib/services/imports';
import { metadataStatus } from '@/lib/services/jobs';
import { fetchMetadataAction } from './actions';

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
  const metadata = await metadataStatus();
  return (
    <div className="space-y-8">
      <section className="space-y-3">
        <h1 className="text-2xl font-semibold">Import</h1>
        <p className="text-sm text-slate-600">
          Files are saved in the data folder first, then imported on the server. Re-importing the same file changes nothing; a different file claiming a stored
          paper's DOI replaces it and keeps the earlier text as a version on the paper's page; a file that cannot be read is reported and the others are still
          imported.
        </p>
        <ImportPanel maxUploadMb={maxUploadMb} formats={importFormats()} />
      </section>
      <section className="space-y-2 text-sm" aria-label="Paper metadata" data-testid="metadata-status">
        <h2 className="text-lg font-medium">Paper metadata</h2>
        <p className="text-slate-600">
          Authors with ORCID, venue, citation counts and retraction or correction notices come from Crossref and OpenAlex ({metadata.services.join(', ')}),
          asked by a job after each import{metadata.enrichment === 'off' ? ' — off (ASSAY_ENRICHMENT=off): only the buttons below ask' : ''}. Offline, the job
          stops and says so; nothing else is affected.
        </p>
        <p>
          {metadata.ok} fetched · {metadata.notFound} unknown to both services · {metadata.failed} failed · {metadata.waiting} to ask
        </p>
        <form action={fetchMetadataAction} className="flex gap-2">
          <button type="submit" name="refresh" value="missing" className="rounded border border-teal-700 px-3 py-1 text-teal-800 hover:bg-teal-50">
            Fetch missing metadata
          </button>
          <button type="submit" name="refresh" value="all" className="rounded border border-slate-300 px-3 py-1 hover:bg-slate-50">
            Refresh all
          </button>
        </form>
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-medium">Recent imports</h2>
        <JobQueue />
        <RecentRuns />
      </section>
    </div>
  );
}
