'use client';

import type { ActionOutcome } from '@/lib/common/errors';
import Link from 'next/link';
import { useActionState } from 'react';

/**
 * Offered under an answer the corpus could not give (an abstention, or nothing in the graph): a search of OpenAlex
 * and Europe PMC for open-access papers on the question (lib/corpus/paper-search.ts), with the searches made before.
 */
export function LookForPapers({
  answerId,
  enabled,
  earlier,
  action,
}: {
  answerId: string;
  enabled: boolean;
  earlier: { id: string; status: string; createdAt: Date }[];
  action: (previous: ActionOutcome, form: FormData) => Promise<ActionOutcome>;
}) {
  const [state, run, pending] = useActionState(action, null);
  return (
    <section
      aria-label="Look for papers"
      data-testid="look-for-papers"
      className="space-y-2 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950"
    >
      {enabled ? (
        <>
          <p>
            The library holds too little for this question. Assay can search OpenAlex and Europe PMC for open-access papers on it and say why each may help; an
            admin imports the ones worth reading (their graph tuples are checked before they join), and the question can be asked again.
          </p>
          <form action={run}>
            <input type="hidden" name="answerId" value={answerId} />
            <button type="submit" disabled={pending} className="rounded bg-sky-800 px-3 py-1 text-white hover:bg-sky-900 disabled:opacity-60">
              {pending ? 'Searching OpenAlex and Europe PMC…' : 'Look for papers'}
            </button>
          </form>
        </>
      ) : (
        <p data-testid="look-for-papers-off">Looking for papers online is switched off on this server (ASSAY_ENRICHMENT=off).</p>
      )}
      {state && !state.ok && (
        <p role="alert" className="text-red-800">
          {state.error}
        </p>
      )}
      {earlier.length > 0 && (
        <p className="text-xs">
          Searched before:{' '}
          {earlier.map((s, i) => (
            <span key={s.id}>
              {i > 0 && ', '}
              <Link href={`/found/${s.id}`} className="text-teal-800 hover:underline">
                {new Date(s.createdAt).toLocaleString('en')} ({s.status})
              </Link>
            </span>
          ))}
        </p>
      )}
    </section>
  );
}
