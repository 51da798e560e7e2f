'use client';

import type { ActionOutcome } from '@/lib/common/errors';
import Link from 'next/link';
import { useActionState } from 'react';
import type { PaperSearchReport } from '@/lib/corpus/found-imports';
import type { PaperCandidate } from '@/lib/corpus/paper-search';
import { licenceText } from '@/lib/scholarly/licences';

type Action = (previous: ActionOutcome, form: FormData) => Promise<ActionOutcome>;

function Message({ state }: { state: ActionOutcome }) {
  if (!state) return null;
  return state.ok ? (
    <p role="status" className="text-emerald-800">
      {state.message}
    </p>
  ) : (
    <p role="alert" className="text-red-800">
      {state.error}
    </p>
  );
}

function Candidate({ c, choosable }: { c: PaperCandidate; choosable: boolean }) {
  return (
    <li className="flex gap-3 rounded border border-slate-200 bg-white p-3" data-testid="candidate" data-importable={c.importable}>
      {choosable && (
        <input
          type="checkbox"
          name="pmcid"
          value={c.pmcid ?? ''}
          disabled={!c.importable}
          aria-label={`Import ${c.title}`}
          className="mt-1"
          defaultChecked={false}
        />
      )}
      <div className="space-y-1">
        <p className="font-medium">
          {c.link ? (
            <a href={c.link} className="text-teal-800 hover:underline" rel="noreferrer noopener" target="_blank">
              {c.title}
            </a>
          ) : (
            c.title
          )}
        </p>
        <p className="text-xs text-slate-600">
          {[c.authors, c.venue, c.year].filter(Boolean).join(' · ')}
          {c.doi ? ` · doi ${c.doi}` : ''}
          {c.pmcid ? ` · ${c.pmcid}` : ''} · found by {c.foundBy.join(' and ')}
        </p>
        <p className="text-xs">
          <span
            className={`rounded px-1.5 ${c.importable ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-200 text-slate-700'}`}
            data-testid="candidate-licence"
          >
            {licenceText(c.licence)}
          </span>{' '}
          {c.inLibrary ? (
            <Link href={`/papers/${c.inLibrary.id}`} className="text-teal-800 hover:underline">
              in the library
            </Link>
          ) : null}
        </p>
        <p className="text-sm" data-testid="candidate-why">
          May help: {c.why.join('; ')}.
        </p>
        {c.blocked && !c.inLibrary && (
          <p className="text-xs text-slate-600" data-testid="candidate-blocked">
            Cannot be imported: {c.blocked}.
          </p>
        )}
      </div>
    </li>
  );
}

/**
 * A "look for papers" search: the candidates with why each may help and whether it can be imported, the import an
 * admin chose (its run, then what validation kept out of the graph or flagged), asking again, and the trace.
 */
export function FoundPapers({
  report,
  mayImport,
  importAction,
  askAgainAction,
}: {
  report: PaperSearchReport;
  mayImport: boolean;
  importAction: Action;
  askAgainAction: Action;
}) {
  const { search, run, papers } = report;
  const [imported, runImport, importing] = useActionState(importAction, null);
  const [asked, runAsk, asking] = useActionState(askAgainAction, null);
  const importable = search.candidates.filter((c) => c.importable);
  const failures = search.trace.filter((t) => typeof t.detail.failed === 'string');
  return (
    <div className="space-y-5">
      {failures.map((f) => (
        <p key={f.step} role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="service-failure">
          {String(f.detail.message)} —{' '}
          {search.status === 'failed' ? 'no service answered; nothing was changed, try again later.' : 'the other service’s papers are below.'}
        </p>
      ))}
      <section aria-label="Candidates" className="space-y-2">
        <h2 className="text-lg font-semibold">
          {search.candidates.length} open-access paper{search.candidates.length === 1 ? '' : 's'} found for <q>{search.query}</q>
        </h2>
        {search.candidates.length === 0 && search.status !== 'failed' && <p className="text-sm">Neither service knows an open-access paper on these terms.</p>}
        <form action={runImport} className="space-y-2">
          <input type="hidden" name="searchId" value={search.id} />
          <ul className="space-y-2">
            {search.candidates.map((c) => (
              <Candidate key={c.key} c={c} choosable={mayImport && search.status !== 'importing'} />
            ))}
          </ul>
          {mayImport && importable.length > 0 && search.status !== 'importing' && (
            <button type="submit" disabled={importing} className="rounded bg-teal-700 px-3 py-1 text-sm text-white hover:bg-teal-800 disabled:opacity-60">
              {importing ? 'Queuing the import…' : 'Import selected'}
            </button>
          )}
          {!mayImport && importable.length > 0 && <p className="text-xs text-slate-600">An admin can import the papers that may help.</p>}
          <Message state={imported} />
        </form>
      </section>
      {run && (
        <section aria-label="Import" className="space-y-2 text-sm" data-testid="found-import">
          <h2 className="text-lg font-semibold">Import</h2>
          <p>
            Run {run.id}: <span data-testid="found-import-status">{run.status}</span>
            {run.message ? ` — ${run.message}` : ''} (
            <Link href="/import" className="text-teal-800 hover:underline">
              import page
            </Link>
            )
          </p>
          {run.errors.map((e) => (
            <p key={e.file} className="text-amber-900">
              {e.file}: {e.reason}
            </p>
          ))}
          {run.status === 'succeeded' &&
            papers.map((p) => (
              <div key={p.pmcid} className="space-y-1 rounded border border-slate-200 bg-white p-3" data-testid="found-paper">
                <p className="font-medium">
                  {p.paperId ? (
                    <Link href={`/papers/${p.paperId}`} className="text-teal-800 hover:underline">
                      {p.title ?? p.pmcid}
                    </Link>
                  ) : (
                    `${p.pmcid}: not in the library`
                  )}
                </p>
                <p data-testid="found-validation">
                  {p.joined} tuples joined the graph · {p.rejected.length} rejected · {p.conflicts.length} flagged as conflicts
                </p>
                {p.rejected.length > 0 && (
                  <ul className="list-disc pl-5 text-xs text-red-900" aria-label="Rejected tuples">
                    {p.rejected.map((r, i) => (
                      <li key={`${r.statement}-${i}`}>
                        {r.statement} — {r.rule === 'unit' ? 'wrong unit' : 'impossible'}: {r.message}
                      </li>
                    ))}
                  </ul>
                )}
                {p.conflicts.length > 0 && (
                  <ul className="list-disc pl-5 text-xs text-amber-900" aria-label="Conflicting tuples">
                    {p.conflicts.map((c, i) => (
                      <li key={`${c.statement}-${i}`}>
                        {c.statement} — {c.message}: {c.conflictsWith.map((w) => w.statement).join('; ')}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            ))}
        </section>
      )}
      {search.status === 'imported' && (
        <form action={runAsk} className="space-y-1">
          <input type="hidden" name="searchId" value={search.id} />
          <button type="submit" disabled={asking} className="rounded bg-sky-800 px-3 py-1 text-sm text-white hover:bg-sky-900 disabled:opacity-60">
            {asking ? 'Asking…' : 'Ask again'}
          </button>
          <Message state={asked} />
        </form>
      )}
      {search.askedAgainId && (
        <p className="text-sm">
          <Link href={`/answers/${search.askedAgainId}`} className="text-teal-800 hover:underline">
            The answer when asked again →
          </Link>
        </p>
      )}
    </div>
  );
}
