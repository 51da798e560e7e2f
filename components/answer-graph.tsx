'use client';

import { callApi } from './api-client';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { answerGraphQuery, answerGraphSources } from '@/lib/answer/graph';
import { type Evidence, provenanceOf } from '@/lib/evidence/model';
import { citedEdges, type GraphData } from '@/lib/graph/view';
import { GraphView } from './graph-view';

/**
 * The graph behind a whole answer, folded until opened (it is read from the database only then): the tuples of
 * every evidence item and of every cited paragraph, with the causal path of tiered reasoning highlighted. It opens on
 * the tuples the answer cites (and those read from the paragraphs it cites); the rest are folded by relation.
 */
export function AnswerGraph({ evidence, cited = [], name }: { evidence: Evidence[]; cited?: string[]; name: string }) {
  const [open, setOpen] = useState(false);
  const sources = useMemo(() => answerGraphSources(evidence), [evidence]);
  // What the answer's sentences cite: graph tuples by id, and the paragraphs whose tuples then come first.
  const citedSources = useMemo(() => {
    const items = evidence.filter((e) => cited.includes(e.id));
    return {
      tupleIds: items.flatMap((e) => provenanceOf(e, 'tuple').map((p) => p.tupleId)),
      paragraphIds: items.flatMap((e) => provenanceOf(e, 'paragraph').map((p) => p.paragraphId)),
    };
  }, [evidence, cited]);
  // The query string keys the cache; the route gets the ids as lists.
  const query = answerGraphQuery(sources);
  const graphQuery = { tuple: sources.tupleIds, paragraph: sources.paragraphIds };
  const graph = useQuery({
    queryKey: ['answer-graph', query],
    enabled: open && query.length > 0,
    queryFn: async (): Promise<GraphData> => {
      return callApi('GET /api/graph/answer', { query: graphQuery }, { failure: 'the graph failed to load' });
    },
  });
  const focus = useMemo(() => (graph.data ? citedEdges(graph.data, citedSources) : undefined), [graph.data, citedSources]);
  if (!query) return null;
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-3" onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="answer-graph">
      <summary className="cursor-pointer text-sm font-medium">
        Graph behind this answer
        {sources.pathTupleIds.length > 0 && <span className="ml-2 text-xs font-normal text-orange-800">causal path highlighted</span>}
      </summary>
      <div className="mt-2">
        {graph.isPending && open && (
          <p role="status" className="text-sm text-slate-600">
            Loading the graph…
          </p>
        )}
        {graph.isError && (
          <p role="alert" className="flex items-center gap-2 text-sm text-red-800">
            {graph.error.message}
            <button type="button" className="rounded border border-red-300 px-2 py-0.5" onClick={() => graph.refetch()}>
              Retry
            </button>
          </p>
        )}
        {graph.data && <GraphView initial={graph.data} name={name} path={sources.pathTupleIds} focus={focus} />}
      </div>
    </details>
  );
}
