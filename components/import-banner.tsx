'use client';

import { callApi } from './api-client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import type { PublicImportStatus } from '@/lib/services/imports';

const number = new Intl.NumberFormat('en');

/**
 * Every page's word on the library being filled: while an import runs (the first start's or anyone's upload), who
 * ever opens the app sees the stage it is in and what it has read, without an account and without file names; when
 * it ends, a line says so. Polls every 2 s while something runs, every 30 s otherwise.
 */
export function ImportBanner() {
  const status = useQuery({
    queryKey: ['import-status'],
    queryFn: async (): Promise<PublicImportStatus> => {
      // A server that cannot say (its database is not ready) shows no banner rather than an error.
      return callApi('GET /api/import/status').catch(() => ({ imports: [], semanticSearch: null }));
    },
    refetchInterval: (q) => (q.state.data?.imports.length ? 2000 : q.state.data?.semanticSearch ? 5000 : 30000),
  });
  const imports = status.data?.imports ?? [];
  const semantic = status.data?.semanticSearch ?? null;
  // While the embedding model embeds the corpus for the first time: how far, and what answers rest on meanwhile.
  const semanticLine =
    semantic &&
    (semantic.papers ? (
      // Embedded in shards: dense search takes papers in as their vectors land.
      <span data-testid="semantic-search-progress">
        Semantic search covers {semantic.papersPercent}% of papers ({number.format(semantic.papers.done)} of {number.format(semantic.papers.total)}
        ): {semantic.model} has embedded {number.format(semantic.done)} of {number.format(semantic.total)} passages; questions about the other papers find
        paragraphs by their words until their vectors land.
      </span>
    ) : (
      <span data-testid="semantic-search-progress">
        Semantic search is incomplete: {semantic.model} has embedded{' '}
        {semantic.total
          ? `${semantic.percent}% of the passages (${number.format(semantic.done)} of ${number.format(semantic.total)})`
          : 'none of the passages yet'}
        ; until it has finished, questions find paragraphs by their words and a character n-gram stand-in.
      </span>
    ));
  const [finished, setFinished] = useState(false);
  const [wasActive, setWasActive] = useState(false);
  useEffect(() => {
    if (imports.length) setWasActive(true);
    else if (wasActive) {
      setWasActive(false);
      setFinished(true);
    }
  }, [imports.length, wasActive]);

  if (!imports.length && semanticLine && !finished)
    return (
      <output className="block border-b border-sky-200 bg-sky-50 px-6 py-2 text-sm text-sky-950" data-testid="import-banner" data-state="embedding">
        {semanticLine}
      </output>
    );
  if (!imports.length)
    return finished ? (
      <output className="block border-b border-teal-200 bg-teal-50 px-6 py-2 text-sm text-teal-900" data-testid="import-banner" data-state="finished">
        The import finished: every paper, record and graph tuple it read is searchable now.{' '}
        <Link href="/library" className="underline">
          See the library
        </Link>
        {semanticLine && <> {semanticLine}</>}
      </output>
    ) : null;

  const running = imports.find((i) => i.status === 'running') ?? imports[0];
  const waiting = imports.length - 1;
  return (
    <output className="block border-b border-amber-200 bg-amber-50 px-6 py-2 text-sm text-amber-950" data-testid="import-banner" data-state="running">
      <span className="font-medium">{running.firstStart ? 'Filling the library for the first time' : 'Importing papers'}</span>
      {running.status === 'queued' ? (
        ' (waiting for its turn)'
      ) : (
        <>
          {' '}
          — step {running.stageNumber} of {running.stageCount}: {running.stage ?? 'finishing'}
          {running.filesTotal > 0 && ` · file ${Math.min(running.filesDone + 1, running.filesTotal)} of ${running.filesTotal}`} ·{' '}
          {number.format(running.papers)} papers and {number.format(running.records)} records read so far
        </>
      )}
      {waiting > 0 && ` · ${waiting} more import${waiting === 1 ? '' : 's'} waiting`}.{' '}
      <span className="text-amber-900">Pages work meanwhile; questions are answered from what is already in, and more slowly until it ends.</span>
    </output>
  );
}
