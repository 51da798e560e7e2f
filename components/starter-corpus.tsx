'use client';

import { callApi } from './api-client';
import { useState } from 'react';
import { RunStatus } from './run-status';

/** Offers the open-access starter corpus download; its progress (or why it failed) shows as an import run. */
export function StarterCorpus() {
  const [runId, setRunId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setError(null);
    try {
      setRunId((await callApi('POST /api/corpus/fetch')).runId);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div className="space-y-3">
      <button
        type="button"
        onClick={start}
        disabled={!!runId}
        className="rounded-md bg-teal-700 px-4 py-2 font-medium text-white hover:bg-teal-800 disabled:opacity-50"
      >
        Download the open-access starter corpus
      </button>
      <p className="text-xs text-slate-500">CC-BY solid-oxide fuel cell articles as JATS XML from Europe PMC. Same as `npm run corpus:fetch`.</p>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {runId ? <RunStatus runId={runId} /> : null}
    </div>
  );
}
