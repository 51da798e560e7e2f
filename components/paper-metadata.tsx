import type { ScholarlyMetadata } from '@/lib/scholarly/metadata';

/** What the paper page shows of a paper's metadata from Crossref and OpenAlex (lib/scholarly), or why it has none. */
export interface PaperMetadataView {
  status: 'ok' | 'not-found' | 'error';
  data: unknown;
  message: string | null;
  fetchedAt: Date;
}

const NOTICE_WORDS: Record<ScholarlyMetadata['notices'][number]['kind'], string> = {
  retraction: 'Retracted',
  withdrawal: 'Withdrawn',
  'expression-of-concern': 'Expression of concern',
  correction: 'Corrected',
  other: 'Updated',
};

/** The retraction / correction banner, shown at the top of the paper page. */
export function NoticeBanner({ metadata }: { metadata: PaperMetadataView | null }) {
  const data = metadata?.data as ScholarlyMetadata | null | undefined;
  if (!data || (!data.retracted && data.notices.length === 0)) return null;
  const severe = data.retracted;
  return (
    <div
      role="alert"
      data-testid="paper-notice"
      className={`rounded-lg border p-4 text-sm ${severe ? 'border-red-300 bg-red-50 text-red-900' : 'border-amber-300 bg-amber-50 text-amber-900'}`}
    >
      <p className="font-semibold">{severe ? 'This paper has been retracted.' : 'This paper has a published notice.'}</p>
      <ul className="mt-1 list-disc pl-5">
        {data.notices.map((n) => (
          <li key={`${n.kind}-${n.doi}`}>
            {NOTICE_WORDS[n.kind]}
            {n.date ? ` on ${n.date}` : ''}
            {n.doi ? (
              <>
                {' '}
                — notice{' '}
                <a href={`https://doi.org/${n.doi}`} className="underline" rel="noreferrer noopener" target="_blank">
                  doi:{n.doi}
                </a>
              </>
            ) : null}
          </li>
        ))}
        {data.retracted && !data.notices.some((n) => n.kind === 'retraction') ? <li>Marked retracted by OpenAlex.</li> : null}
      </ul>
      <p className="mt-1">Answers that cite it say so.</p>
    </div>
  );
}

/** The metadata rows of the paper page's header. */
export function MetadataRows({ metadata }: { metadata: PaperMetadataView | null }) {
  if (!metadata)
    return (
      <>
        <dt className="text-slate-500">Metadata</dt>
        <dd className="text-slate-500" data-testid="paper-metadata">
          not fetched yet (Crossref and OpenAlex are asked after each import when the network allows)
        </dd>
      </>
    );
  const data = metadata.data as ScholarlyMetadata | null;
  const when = new Date(metadata.fetchedAt).toISOString().slice(0, 10);
  return (
    <>
      {data ? (
        <>
          <dt className="text-slate-500">Authors (registered)</dt>
          <dd data-testid="paper-metadata-authors">
            {data.authors.map((a, i) => (
              <span key={`${a.name}-${i}`}>
                {i > 0 ? ', ' : ''}
                {a.name}
                {a.orcid ? (
                  <>
                    {' '}
                    <a href={`https://orcid.org/${a.orcid}`} className="text-teal-800 underline" rel="noreferrer noopener" target="_blank">
                      ORCID {a.orcid}
                    </a>
                  </>
                ) : null}
              </span>
            ))}
          </dd>
          <dt className="text-slate-500">Venue</dt>
          <dd>{[data.venue, data.year].filter(Boolean).join(', ') || '—'}</dd>
          <dt className="text-slate-500">Cited by</dt>
          <dd data-testid="paper-cited-by">{data.citedBy ?? '—'}</dd>
          {data.license ? (
            <>
              <dt className="text-slate-500">Licence (registered)</dt>
              <dd>{data.license}</dd>
            </>
          ) : null}
        </>
      ) : null}
      <dt className="text-slate-500">Metadata</dt>
      <dd className="text-slate-600" data-testid="paper-metadata">
        {metadata.status === 'ok'
          ? `from ${data?.sources.join(' and ')}, ${when}`
          : metadata.status === 'not-found'
            ? `Crossref and OpenAlex do not know this DOI (asked ${when})`
            : `the last attempt failed (${when}): ${metadata.message}${data ? '; shown as fetched before' : ''}`}
      </dd>
    </>
  );
}
