import { type SearchParams, pageParam, textParam } from '@/lib/common/params';
import Link from 'next/link';
import { libraryOverview, MAX_SEARCH_WORDS, type SearchField, searchLibrary } from '@/lib/services/library';
import { AppError } from '@/lib/common/errors';
import { Highlighted } from '@/components/highlighted';
import { DatabaseUnavailable } from '@/components/database-unavailable';
import { StarterCorpus } from '@/components/starter-corpus';
import { parseCondition } from '@/lib/services/vocabulary';
import { PARAGRAPH_ROLES, SYNTHESIS_METHODS } from '@/lib/services/vocabulary';

const roles: readonly string[] = PARAGRAPH_ROLES;
const methods: readonly string[] = SYNTHESIS_METHODS;

export const dynamic = 'force-dynamic';

const plural = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
/** A search's own failure (past its time budget) as the page says it; anything else is the error page's. */
const searchFailure = (error: unknown): string => {
  if (error instanceof AppError) return error.message;
  throw error;
};
const intOrUndefined = (v: string) => (/^\d{1,4}$/.test(v) ? Number(v) : undefined);
const fields: { value: SearchField; label: string }[] = [
  { value: 'all', label: 'Everything' },
  { value: 'title', label: 'Title' },
  { value: 'author', label: 'Author' },
  { value: 'doi', label: 'DOI' },
  { value: 'fulltext', label: 'Full text' },
];

export default async function LibraryPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const q = textParam(sp.q, 500);
  const field = (fields.find((f) => f.value === textParam(sp.field))?.value ?? 'all') as SearchField;
  const domain = textParam(sp.domain);
  const source = textParam(sp.source);
  const yearFrom = textParam(sp.yearFrom);
  const yearTo = textParam(sp.yearTo);
  const page = pageParam(sp.page);
  const role = roles.includes(textParam(sp.role)) ? textParam(sp.role) : '';
  const method = methods.includes(textParam(sp.method)) ? textParam(sp.method) : '';
  const material = textParam(sp.material, 200);
  const conditionText = textParam(sp.condition, 200);
  const condition = conditionText ? parseCondition(conditionText) : null;

  let overview: Awaited<ReturnType<typeof libraryOverview>>;
  try {
    overview = await libraryOverview();
  } catch (error) {
    return <DatabaseUnavailable message={(error as Error).message} />;
  }
  const { facets, records } = overview;
  const totals = { papers: overview.papers, paragraphs: overview.paragraphs };
  // A search that cannot be run (past its time budget) is said on the page, with the form to change it.
  const result = await searchLibrary({
    q,
    field,
    domain: domain || undefined,
    source: source || undefined,
    yearFrom: intOrUndefined(yearFrom),
    yearTo: intOrUndefined(yearTo),
    role: role || undefined,
    method: method || undefined,
    material: material || undefined,
    condition: conditionText || undefined,
    page,
  }).then(
    (r) => ({ ...r, error: null }),
    (error: unknown) => ({ total: 0, page: 1, pageSize: 20, hits: [], wordsLeftOut: 0, error: searchFailure(error) }),
  );
  const pages = Math.max(Math.ceil(result.total / result.pageSize), 1);
  const link = (p: number) => {
    const u = new URLSearchParams();
    for (const [k, v] of Object.entries({
      q,
      field: field === 'all' ? '' : field,
      domain,
      source,
      yearFrom,
      yearTo,
      role,
      method,
      material,
      condition: conditionText,
    }))
      if (v) u.set(k, v);
    if (p > 1) u.set('page', String(p));
    return `/library?${u.toString()}`;
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">Library</h1>
        <p className="text-sm text-slate-600" data-testid="library-totals">
          {totals.papers.toLocaleString('en')} papers · {totals.paragraphs.toLocaleString('en')} paragraphs · {records.toLocaleString('en')} structured records
        </p>
      </div>

      {totals.papers === 0 && records === 0 ? (
        <section className="rounded-lg border border-slate-200 bg-white p-6">
          <h2 className="text-lg font-medium">Your library is empty</h2>
          <p className="mt-1 text-sm text-slate-600">
            Import your own papers (PDF, TEI or JATS XML, JSON lines, text) on the{' '}
            <Link className="text-teal-800 underline" href="/import">
              Import
            </Link>{' '}
            page, or download an open-access starter corpus from Europe PMC (needs internet access).
          </p>
          <div className="mt-4">
            <StarterCorpus />
          </div>
        </section>
      ) : null}

      {/* biome-ignore lint/a11y/useSemanticElements: a <form role="search"> is the landmark screen readers know; <search> is too new for them */}
      <form action="/library" method="get" role="search" className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 md:grid-cols-12">
        <label className="md:col-span-6">
          <span className="sr-only">Search</span>
          <input
            name="q"
            defaultValue={q}
            type="search"
            placeholder="Search titles, DOIs, authors and full text"
            className="w-full rounded-md border border-slate-300 px-3 py-2"
          />
        </label>
        <label className="md:col-span-2">
          <span className="sr-only">Search in</span>
          <select name="field" defaultValue={field} aria-label="Search in" className="w-full rounded-md border border-slate-300 px-2 py-2">
            {fields.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="rounded-md bg-teal-700 px-4 py-2 font-medium text-white hover:bg-teal-800 md:col-span-2">
          Search
        </button>
        <Link href="/library" className="self-center text-center text-sm text-slate-600 hover:underline md:col-span-2">
          Clear
        </Link>
        <SelectFilter label="Domain" name="domain" value={domain} anyLabel="All domains" options={facets.domains} />
        <SelectFilter label="Source" name="source" value={source} anyLabel="All sources" options={facets.sources} />
        <label className="text-sm md:col-span-2">
          Year from
          <input
            name="yearFrom"
            defaultValue={yearFrom}
            inputMode="numeric"
            pattern="\d{4}"
            placeholder={String(facets.yearMin ?? '')}
            className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5"
          />
        </label>
        <label className="text-sm md:col-span-2">
          Year to
          <input
            name="yearTo"
            defaultValue={yearTo}
            inputMode="numeric"
            pattern="\d{4}"
            placeholder={String(facets.yearMax ?? '')}
            className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5"
          />
        </label>
        <SelectFilter label="Paragraph role" name="role" value={role} anyLabel="Any role" options={roles.map((value) => ({ value }))} />
        <SelectFilter label="Synthesis method" name="method" value={method} anyLabel="Any method" options={methods.map((value) => ({ value }))} />
        <label className="text-sm md:col-span-2">
          Material
          <input
            name="material"
            defaultValue={material}
            placeholder="YSZ, NiFe LDH, KMnO4 …"
            className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5"
          />
        </label>
        <label className="text-sm md:col-span-2">
          Condition
          <input
            name="condition"
            defaultValue={conditionText}
            placeholder="800–1000 °C, ≥ 1073 K"
            className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5"
          />
        </label>
        <button type="submit" className="self-end rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 md:col-span-2">
          Apply filters
        </button>
        {conditionText ? (
          <p className={`text-xs md:col-span-12 ${condition ? 'text-slate-500' : 'text-red-700'}`} data-testid="condition-interpretation">
            {condition
              ? `Condition read as ${condition.dimension.replace(/-/g, ' ')} ${condition.written}: papers stating a ${condition.dimension.replace(/-/g, ' ')} in that range, in any unit`
              : `Could not read “${conditionText}” as a value with a unit (e.g. 800–1000 °C, ≥ 1073 K, 10 mA cm⁻²)`}
          </p>
        ) : null}
      </form>

      {result.error ? (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="search-error">
          {result.error}
        </p>
      ) : (
        <p className="text-sm text-slate-600" data-testid="result-count">
          {result.total.toLocaleString('en')} {result.total === 1 ? 'paper' : 'papers'}
          {q ? ` matching “${q}”` : ''}
          {pages > 1 ? ` · page ${result.page} of ${pages}` : ''}
          {result.wordsLeftOut ? ` · the full text was searched for the first ${MAX_SEARCH_WORDS} words (${result.wordsLeftOut} left out)` : ''}
        </p>
      )}

      <ol className="space-y-3" data-testid="results">
        {result.hits.map((h) => (
          <li key={h.id} className="rounded-lg border border-slate-200 bg-white p-4">
            <Link href={`/papers/${h.id}`} className="font-medium text-teal-900 hover:underline">
              {h.title ?? '(untitled)'}
            </Link>
            <p className="mt-1 text-sm text-slate-600">
              {[h.authors.slice(0, 4).join(', ') + (h.authors.length > 4 ? ' et al.' : ''), h.journal, h.year].filter(Boolean).join(' · ')}
            </p>
            <p className="mt-1 flex flex-wrap gap-2 text-xs text-slate-500">
              {h.doi ? <span>doi:{h.doi}</span> : <span>no DOI</span>}
              <span className="rounded bg-slate-100 px-1.5">{h.source}</span>
              {h.domain ? <span className="rounded bg-teal-50 px-1.5 text-teal-800">{h.domain}</span> : null}
              <span>{plural(h.paragraphCount, 'paragraph')}</span>
              {h.recordCount ? <span>{plural(h.recordCount, 'record')}</span> : null}
            </p>
            {h.snippet ? (
              <p className="mt-2 text-sm text-slate-700">
                … <Highlighted text={h.snippet} /> …
              </p>
            ) : null}
          </li>
        ))}
      </ol>

      {pages > 1 ? (
        <nav className="flex items-center justify-center gap-4 text-sm" aria-label="Pages">
          {result.page > 1 ? (
            <Link href={link(result.page - 1)} className="rounded border border-slate-300 bg-white px-3 py-1 hover:bg-slate-50">
              ← Previous
            </Link>
          ) : null}
          <span>
            Page {result.page} of {pages}
          </span>
          {result.page < pages ? (
            <Link href={link(result.page + 1)} className="rounded border border-slate-300 bg-white px-3 py-1 hover:bg-slate-50">
              Next →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

/** A labelled select of filter values ("" = no filter), with counts when known. */
function SelectFilter(props: { label: string; name: string; value: string; anyLabel: string; options: { value: string; count?: number }[] }) {
  return (
    <label className="text-sm md:col-span-3">
      {props.label}
      <select name={props.name} defaultValue={props.value} className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5">
        <option value="">{props.anyLabel}</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.value}
            {o.count !== undefined ? ` (${o.count})` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
