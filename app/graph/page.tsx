import { currentViewer } from '@/app/current-viewer';
import { may } from '@/lib/services/access';
import { AppError } from '@/lib/common/errors';
import { type SearchParams, pageParam, textParam } from '@/lib/common/params';
import Link from 'next/link';
import { graphPage, type MergeMember } from '@/lib/services/graph';
import { DatabaseUnavailable } from '@/components/database-unavailable';
import { GraphView } from '@/components/graph-view';
import { allowMergeAction, rejectLinkAction, restoreLinkAction, undoMergeAction } from './actions';

export const dynamic = 'force-dynamic';

const PAGE = 25;

const spellings = (m: MergeMember) =>
  Object.entries(m.surfaces)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([s, n]) => `${s}${n > 1 ? ` ×${n}` : ''}`)
    .join(' · ');

export default async function GraphPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const q = textParam(sp.q, 200);
  const page = pageParam(sp.page);
  const canCurate = may(await currentViewer(), 'curate');
  const entity = textParam(sp.entity, 200).trim();
  const explore = textParam(sp.explore, 300);
  let data: Awaited<ReturnType<typeof graphPage>>;
  try {
    data = await graphPage({ q, skip: (page - 1) * PAGE, take: PAGE, entity, explore });
  } catch (error) {
    // A search past its time budget says so (its form is in the page's header); anything else is the database.
    if (error instanceof AppError)
      return (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="search-error">
          {error.message}{' '}
          <Link href="/graph" className="underline">
            Back to the graph
          </Link>
        </p>
      );
    return <DatabaseUnavailable message={(error as Error).message} />;
  }
  const { counts, merges, matches, starts, startKey, start, links, linkCounts } = data;
  const pages = Math.max(1, Math.ceil(merges.total / PAGE));
  const link = (p: number) => `/graph?${new URLSearchParams({ ...(q ? { q } : {}), page: String(p) })}`;
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-semibold">Knowledge graph</h1>
        <p className="text-sm text-slate-600">
          {counts.entities.toLocaleString('en')} entities, {counts.tuples.toLocaleString('en')} tuples ({counts.causal.toLocaleString('en')} causal),{' '}
          {counts.merged.toLocaleString('en')} {counts.merged === 1 ? 'name' : 'names'} merged into a representative by canonical clustering. Merges change
          which entity a question is grounded on, never the tuples or their spellings: undo any merge you disagree with; clustering will not redo it.
        </p>
      </div>
      <section aria-label="Explore" className="space-y-2">
        <h2 className="text-lg font-semibold">Explore</h2>
        <form className="flex gap-2" action="/graph">
          <input
            name="entity"
            defaultValue={entity}
            placeholder="an entity, e.g. MgB2, power density, doping"
            aria-label="Find an entity"
            className="w-72 rounded border border-slate-300 px-2 py-1 text-sm"
          />
          <button type="submit" className="rounded bg-teal-700 px-3 py-1 text-sm font-medium text-white">
            Find
          </button>
        </form>
        {entity && matches.length === 0 && <p className="text-sm text-slate-600">No entity names “{entity}”.</p>}
        {matches.length > 0 && (
          <ul className="flex flex-wrap gap-2 text-sm" aria-label="Matching entities">
            {matches.map((m) => (
              <li key={m.key}>
                <Link
                  href={`/graph?${new URLSearchParams({ entity, explore: m.key })}`}
                  className="rounded border border-slate-200 bg-white px-2 py-0.5 text-teal-800 hover:underline"
                >
                  {m.label}
                </Link>{' '}
                <span className="text-xs text-slate-500">
                  {m.kind} · {m.tuples}
                </span>
              </li>
            ))}
          </ul>
        )}
        {starts.length > 0 && (
          <div className="text-sm" data-testid="graph-starts">
            <span className="text-slate-600">Materials with values in the most papers: </span>
            <ul className="inline-flex flex-wrap gap-2" aria-label="Start from">
              {starts.map((m) => (
                <li key={m.key}>
                  <Link
                    href={`/graph?${new URLSearchParams({ explore: m.key })}`}
                    className="rounded border border-slate-200 bg-white px-2 py-0.5 text-teal-800 hover:underline"
                  >
                    {m.label}
                  </Link>{' '}
                  <span className="text-xs text-slate-500">
                    {m.papers} {m.papers === 1 ? 'paper' : 'papers'}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {start && (
          <div className="rounded-lg border border-slate-200 bg-white p-3">
            <p className="mb-2 text-sm">
              Around{' '}
              <span className="font-medium">
                {start.nodes.find((n) => n.id === startKey)?.label ?? matches.find((m) => m.key === startKey)?.label ?? 'this entity'}
              </span>
              {explore ? '' : ' (the material with values in the most papers)'}: click a node to select it, expand it to follow the graph, click an edge for the
              sentences behind it.
            </p>
            <GraphView key={startKey} initial={start} name={`graph-${startKey.replace(/[^\w.-]+/g, '_')}`} />
          </div>
        )}
      </section>
      <form className="flex gap-2" action="/graph">
        <input
          name="q"
          defaultValue={q}
          placeholder="a name, e.g. cathode"
          aria-label="Filter merges"
          className="w-72 rounded border border-slate-300 px-2 py-1 text-sm"
        />
        <button type="submit" className="rounded bg-teal-700 px-3 py-1 text-sm font-medium text-white">
          Filter
        </button>
      </form>
      <section aria-label="Merges" className="space-y-3">
        <h2 className="text-lg font-semibold">
          Merges{' '}
          <span className="text-sm font-normal text-slate-500">
            {merges.total.toLocaleString('en')} {merges.total === 1 ? 'group' : 'groups'}
            {q && ` naming “${q}”`}
          </span>
        </h2>
        {merges.groups.length === 0 && <p className="text-sm text-slate-600">No merges{q ? ' match this filter' : ' yet: the graph is built on import'}.</p>}
        {merges.groups.map((g) => (
          <article key={g.representative.key} className="rounded-lg border border-slate-200 bg-white p-3" aria-label={`Merge group ${g.representative.label}`}>
            <p className="text-sm">
              {/* The key is for curators who need it (on hover), not something to read. */}
              <span className="font-medium" title={g.representative.key}>
                {g.representative.label}
              </span>{' '}
              <span className="text-xs text-slate-500">representative, {g.representative.tuples} tuples</span>
            </p>
            <table className="mt-2 w-full text-left text-sm">
              <thead className="text-xs text-slate-500">
                <tr>
                  <th className="py-1">merged name</th>
                  <th>how</th>
                  <th>distance</th>
                  <th>tuples</th>
                  <th>spellings seen</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {g.members.map((m) => (
                  <tr key={m.key} className="border-t border-slate-100">
                    <td className="py-1">{m.label}</td>
                    <td className="text-xs">{m.method}</td>
                    <td className="text-xs">{m.distance === null ? '—' : m.distance.toFixed(3)}</td>
                    <td className="text-xs">{m.tuples}</td>
                    <td className="text-xs text-slate-600">{spellings(m)}</td>
                    <td className="text-right">
                      {canCurate && (
                        <form action={undoMergeAction}>
                          <input type="hidden" name="key" value={m.key} />
                          <button
                            type="submit"
                            className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50"
                            aria-label={`Undo merge of ${m.label}`}
                          >
                            Undo
                          </button>
                        </form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </article>
        ))}
        {pages > 1 && (
          <nav className="flex gap-3 text-sm" aria-label="Pages">
            {page > 1 && <Link href={link(page - 1)}>← previous</Link>}
            <span className="text-slate-500">
              page {page} of {pages}
            </span>
            {page < pages && <Link href={link(page + 1)}>next →</Link>}
          </nav>
        )}
      </section>
      <section aria-label="Links to Wikidata" className="space-y-2" data-testid="entity-links">
        <h2 className="text-lg font-semibold">Links to Wikidata</h2>
        <p className="text-sm text-slate-600">
          {linkCounts.linked ?? 0} linked · {linkCounts.none ?? 0} without a matching item · {linkCounts.rejected ?? 0} rejected · {linkCounts.error ?? 0}{' '}
          failed. A compound is linked only to an item with its chemical formula, any other entity only to an item named as it is; a linked material's other
          names (“magnesium diboride” for MgB2) are read as the material in questions. Reject a link you disagree with: it is not made again.
        </p>
        {links.length === 0 ? (
          <p className="text-sm text-slate-600">No links yet: a job asks Wikidata after each import when the network allows.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500">
              <tr>
                <th className="py-1">entity</th>
                <th className="py-1">Wikidata item</th>
                <th className="py-1">by</th>
                <th className="py-1">other names</th>
                <th className="py-1" />
              </tr>
            </thead>
            <tbody>
              {links.map((l) => (
                <tr key={l.entityKey} className={`border-t border-slate-100 ${l.status === 'rejected' ? 'text-slate-400 line-through' : ''}`}>
                  <td className="py-1" title={l.entityKey}>
                    {l.entityLabel}
                  </td>
                  <td className="py-1">
                    <a href={`https://www.wikidata.org/wiki/${l.qid}`} className="text-teal-800 underline" rel="noreferrer noopener" target="_blank">
                      {l.qid}
                    </a>{' '}
                    {l.label}
                    {l.description ? <span className="text-slate-500"> — {l.description}</span> : null}
                  </td>
                  <td className="py-1">{l.method === 'formula' ? `formula ${l.formula ?? ''}` : 'name'}</td>
                  <td className="py-1 text-slate-600">{(l.aliases as string[]).slice(0, 5).join(', ')}</td>
                  <td className="py-1">
                    {canCurate && (
                      <form action={l.status === 'rejected' ? restoreLinkAction : rejectLinkAction}>
                        <input type="hidden" name="key" value={l.entityKey} />
                        <button
                          type="submit"
                          className="rounded border border-slate-300 px-2 py-0.5 text-xs no-underline hover:bg-slate-50"
                          aria-label={`${l.status === 'rejected' ? 'Restore' : 'Reject'} the link of ${l.entityLabel}`}
                        >
                          {l.status === 'rejected' ? 'Restore' : 'Reject'}
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-label="Undone merges" className="space-y-2">
        <h2 className="text-lg font-semibold">Undone merges</h2>
        {merges.undone.length === 0 ? (
          <p className="text-sm text-slate-600">None.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {merges.undone.map((m) => (
              <li key={m.key} className="flex items-center gap-3">
                <span title={m.key}>{m.label}</span>
                {canCurate && (
                  <form action={allowMergeAction}>
                    <input type="hidden" name="key" value={m.key} />
                    <button
                      type="submit"
                      className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50"
                      aria-label={`Allow merging ${m.label} again`}
                    >
                      Allow merging again
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
