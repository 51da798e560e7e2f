import { describeStructurer } from '@/lib/common/structurers';
import { MetadataRows, NoticeBanner } from '@/components/paper-metadata';
import { currentViewer } from '@/app/current-viewer';
import { may } from '@/lib/services/access';
import Link from 'next/link';
import { idParam, pageParam, type SearchParams } from '@/lib/common/params';
import { PAPER_PAGE_SIZE } from '@/lib/evidence/model';
import { notFound } from 'next/navigation';
import { restoreVersionAction } from './actions';
import { paperPage } from '@/lib/services/library';
import { ReadableData } from '@/components/readable-data';
import { RecordReadingView } from '@/components/record-reading';
import { AnnotatedText } from '@/components/annotated-text';

export const dynamic = 'force-dynamic';

/** The roles a synthesis paragraph's materials play, in the order a recipe reads them. */
const ROLE_ORDER = [
  ['target', 'target'],
  ['precursor', 'precursors'],
  ['solvent', 'solvents'],
  ['additive', 'additives'],
  ['substrate', 'substrate'],
] as const;

/** A synthesis paragraph's materials by role ("target Co3O4 · precursors Co(NO3)2·6H2O · additives NH4F, urea"). */
function MaterialRoles({ text, mentions }: { text: string; mentions: { kind: string; type: string; start: number; end: number }[] }) {
  const byRole = ROLE_ORDER.map(([role, label]) => {
    const names = mentions.filter((m) => m.kind === 'entity' && m.type === role).map((m) => text.slice(m.start, m.end));
    return { role, label, names: [...new Set(names)] };
  }).filter((r) => r.names.length > 0);
  if (byRole.length === 0) return null;
  return (
    <dl className="mb-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-700" data-testid="paragraph-materials" aria-label="Materials by role">
      {byRole.map((r) => (
        <div key={r.role} className="flex gap-1" data-role={r.role}>
          <dt className="text-slate-500">{r.label}</dt>
          <dd>{r.names.join(', ')}</dd>
        </div>
      ))}
    </dl>
  );
}

const roleStyle: Record<string, string> = {
  synthesis: 'bg-orange-50 text-orange-800',
  performance: 'bg-emerald-50 text-emerald-800',
  system: 'bg-indigo-50 text-indigo-800',
  others: 'bg-slate-100 text-slate-600',
};

function summary(record: unknown): string {
  const r = record as { synthesis?: unknown[]; performance?: unknown[] };
  return `${r.synthesis?.length ?? 0} synthesis entries, ${r.performance?.length ?? 0} performance entries`;
}

export default async function PaperPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }) {
  const id = idParam((await params).id);
  const requestedPage = pageParam((await searchParams).page);
  const canCurate = may(await currentViewer(), 'curate');
  if (!id) notFound();
  const found = await paperPage(id);
  if (!found) notFound();
  const { paper, records, versions, metadata, reading } = found;

  // A long paper is read in pages of PAPER_PAGE_SIZE paragraphs (links to a paragraph name its page).
  const pages = Math.max(1, Math.ceil(paper.paragraphs.length / PAPER_PAGE_SIZE));
  const page = Math.min(requestedPage, pages);
  const shown = paper.paragraphs.slice((page - 1) * PAPER_PAGE_SIZE, page * PAPER_PAGE_SIZE);
  const pager =
    pages > 1 ? (
      <nav aria-label="Pages of the paper" className="flex flex-wrap items-center gap-2 text-sm" data-testid="paper-pages">
        <span className="text-slate-600">
          paragraphs {(page - 1) * PAPER_PAGE_SIZE + 1}–{(page - 1) * PAPER_PAGE_SIZE + shown.length} of {paper.paragraphs.length}
        </span>
        {Array.from({ length: pages }, (_, i) => i + 1).map((n) =>
          n === page ? (
            <span key={n} aria-current="page" className="rounded bg-teal-700 px-2 text-white">
              {n}
            </span>
          ) : (
            <Link key={n} href={`/papers/${paper.id}?page=${n}`} className="rounded border border-slate-300 px-2 text-teal-800 hover:underline">
              {n}
            </Link>
          ),
        )}
      </nav>
    ) : null;

  // Consecutive paragraphs with the same section form one group, in reading order.
  const groups: { section: string | null; paragraphs: typeof paper.paragraphs }[] = [];
  for (const p of shown) {
    const last = groups.at(-1);
    if (last && last.section === p.section) last.paragraphs.push(p);
    else groups.push({ section: p.section, paragraphs: [p] });
  }

  return (
    <article className="space-y-6">
      <p className="text-sm">
        <Link href="/library" className="text-teal-800 hover:underline">
          ← Library
        </Link>
      </p>
      <header className="space-y-2 rounded-lg border border-slate-200 bg-white p-5">
        <h1 className="text-2xl font-semibold leading-snug">{paper.title ?? '(untitled)'}</h1>
        {paper.authors.length ? <p className="text-sm text-slate-700">{paper.authors.join(', ')}</p> : null}
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          {paper.journal || paper.year ? (
            <>
              <dt className="text-slate-500">Published</dt>
              <dd>{[paper.journal, paper.year].filter(Boolean).join(', ')}</dd>
            </>
          ) : null}
          <dt className="text-slate-500">DOI</dt>
          <dd>
            {paper.doi ? (
              <a href={`https://doi.org/${paper.doi}`} className="text-teal-800 underline" rel="noreferrer noopener" target="_blank" data-testid="doi-link">
                {paper.doi}
              </a>
            ) : (
              <span className="text-slate-500">none</span>
            )}
          </dd>
          <dt className="text-slate-500">Licence</dt>
          <dd>{paper.license ?? <span className="text-slate-500">not stated</span>}</dd>
          <dt className="text-slate-500">Source</dt>
          <dd>
            {paper.source}
            {paper.sourceId ? ` (${paper.sourceId})` : ''} · imported as {paper.format}
            {paper.domain ? ` · domain ${paper.domain}` : ''}
          </dd>
          <dt className="text-slate-500">Text</dt>
          <dd>{paper.paragraphs.length} paragraphs</dd>
          {paper.doi ? <MetadataRows metadata={metadata} /> : null}
        </dl>
      </header>
      <NoticeBanner metadata={metadata} />

      {versions.length > 0 && (
        <section aria-label="Earlier versions" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm" data-testid="paper-versions">
          <h2 className="font-medium text-amber-900">
            Earlier versions ({versions.length}): an import replaced this paper's text or metadata; what it replaced is kept here
          </h2>
          <ol className="space-y-2">
            {versions.map((v) => (
              <li key={v.id} className="rounded border border-amber-200 bg-white p-3" data-testid="paper-version">
                <p>
                  <span className="font-medium">{v.title ?? '(untitled)'}</span> · {v.source} ({v.format}) · {v.paragraphCount} paragraphs · replaced{' '}
                  {v.replacedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC
                </p>
                <p className="text-xs text-slate-600">{v.summary}</p>
                <details className="mt-1">
                  <summary className="cursor-pointer text-teal-800">Read this version</summary>
                  <div className="mt-2 max-h-96 space-y-2 overflow-y-auto">
                    {v.paragraphs.map((p, i) => (
                      // Text only, never HTML: a replaced version is as untrusted as any imported file.
                      <p key={`${v.id}-${i}`} className="leading-relaxed">
                        {p.section ? <span className="mr-1 text-xs uppercase text-slate-500">{p.section}</span> : null}
                        {p.text}
                      </p>
                    ))}
                  </div>
                </details>
                {canCurate && (
                  <form action={restoreVersionAction} className="mt-2">
                    <input type="hidden" name="version" value={v.id} />
                    <button type="submit" className="rounded border border-amber-400 px-2 py-0.5 text-amber-900 hover:bg-amber-100">
                      Restore this version
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ol>
        </section>
      )}

      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <section className="space-y-5" aria-label="Paper text">
          {pager}
          {groups.map((g, gi) => (
            <section key={gi} className="rounded-lg border border-slate-200 bg-white p-5">
              <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-500">{g.section ?? 'Text'}</h2>
              <div className="space-y-3">
                {g.paragraphs.map((p) => (
                  <div key={p.id} id={`p${p.ordinal}`} data-paragraph-id={p.externalId ?? p.id}>
                    {p.role ? (
                      <p className="mb-1 flex gap-1.5 text-[11px] font-medium uppercase tracking-wide">
                        <span className={`rounded px-1.5 py-0.5 ${roleStyle[p.role] ?? 'bg-slate-100'}`} data-testid="role-badge">
                          {p.role}
                        </span>
                        {p.method ? (
                          <span className="rounded bg-orange-100 px-1.5 py-0.5 text-orange-900" data-testid="method-badge">
                            {p.method}
                          </span>
                        ) : null}
                      </p>
                    ) : null}
                    {(p.kind === 'front-matter' || p.kind === 'back-matter') && (
                      <p className="mb-1 text-[11px] font-medium uppercase tracking-wide text-slate-500" data-testid="non-content-badge">
                        {p.kind.replace('-', ' ')} · not used as evidence
                      </p>
                    )}
                    <MaterialRoles text={p.text} mentions={p.mentions} />
                    <p
                      className={
                        p.kind === 'caption'
                          ? 'text-sm italic text-slate-700'
                          : p.kind === 'table'
                            ? 'rounded bg-slate-50 px-2 py-1 text-sm text-slate-800'
                            : p.kind === 'front-matter' || p.kind === 'back-matter'
                              ? 'text-sm text-slate-500'
                              : 'leading-relaxed'
                      }
                    >
                      <AnnotatedText text={p.text} mentions={p.mentions} />
                    </p>
                  </div>
                ))}
              </div>
            </section>
          ))}
          {pager}
        </section>
        <aside className="space-y-3" aria-label="Structured records">
          <h2 className="text-lg font-medium">Structured record</h2>
          {paper.structure ? (
            <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white p-3" data-testid="paper-record">
              <p className="mb-1 text-xs text-slate-500">
                {summary(paper.structure.record)} · structured by {describeStructurer(paper.structure.extractor)} ({paper.structure.extractor})
              </p>
              <div className="text-sm">{reading && <RecordReadingView reading={reading} />}</div>
              <details className="mt-2 text-xs">
                <summary className="cursor-pointer select-none text-slate-600">All fields of the record</summary>
                <ReadableData value={paper.structure.record} name="record" />
              </details>
            </div>
          ) : (
            <p className="text-sm text-slate-600">Not structured yet (run `npm run structure`).</p>
          )}
          <h2 className="pt-2 text-lg font-medium">Imported records</h2>
          {records.total === 0 ? (
            <p className="text-sm text-slate-600">No structured records are linked to this paper.</p>
          ) : (
            <>
              <p className="text-sm text-slate-600" data-testid="record-count">
                {records.total} linked {records.total === 1 ? 'record' : 'records'}
                {records.total > records.items.length ? ` (first ${records.items.length} shown)` : ''}
              </p>
              {records.items.map((r) => (
                <div key={r.id} className="overflow-x-auto rounded-lg border border-slate-200 bg-white p-3" data-testid="imported-record">
                  <p className="mb-1 text-xs font-medium text-teal-800">{r.kind}</p>
                  {r.title ? <p className="mb-2 text-sm">{r.title}</p> : null}
                  <ReadableData value={r.data} name="data" />
                </div>
              ))}
            </>
          )}
        </aside>
      </div>
    </article>
  );
}
