import Link from 'next/link';
import { notFound } from 'next/navigation';
import { AutoRefresh } from '@/components/auto-refresh';
import { FoundPapers } from '@/components/found-papers';
import { TraceList } from '@/components/trace-list';
import { may } from '@/lib/services/access';
import { paperSearch } from '@/lib/services/paper-search';
import { currentViewer } from '@/app/current-viewer';
import { askAgainAction, importFoundAction } from '../actions';

export const dynamic = 'force-dynamic';

/** One "look for papers" search at its own URL: its candidates, the import, validation, asking again and the trace. */
export default async function FoundPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[a-z0-9]{10,40}$/i.test(id)) notFound();
  const viewer = await currentViewer();
  if (!may(viewer, 'read')) notFound();
  const report = await paperSearch(id);
  if (!report) notFound();
  const { search } = report;
  return (
    <div className="space-y-4">
      {search.status === 'importing' && <AutoRefresh seconds={2} />}
      <p className="text-sm">
        {search.answerId ? (
          <Link href={`/answers/${search.answerId}`} className="text-teal-800 hover:underline">
            ← The answer that offered this search
          </Link>
        ) : null}
      </p>
      <h1 className="text-xl font-semibold">Papers for: {search.question}</h1>
      <p className="text-xs text-slate-500">
        Searched {search.createdAt.toLocaleString('en')}
        {search.createdBy ? ` by ${search.createdBy}` : ''} · <span data-testid="found-status">{search.status}</span>
      </p>
      <FoundPapers report={report} mayImport={may(viewer, 'import')} importAction={importFoundAction} askAgainAction={askAgainAction} />
      <details className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="found-trace" open>
        <summary className="cursor-pointer font-medium">Every step</summary>
        <TraceList trace={search.trace} />
      </details>
    </div>
  );
}
