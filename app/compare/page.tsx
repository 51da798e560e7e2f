import { type SearchParams, textParam, textParams } from '@/lib/common/params';
import Link from 'next/link';
import { CompareView } from '@/components/compare-view';
import { askRequestSchema, requestProblem } from '@/lib/services/vocabulary';
import { describeFilters } from '@/lib/services/vocabulary';
import { isPipelineName, pipelineDescriptions } from '@/lib/services/vocabulary';

export const dynamic = 'force-dynamic';

/**
 * The compare screen: /compare?q=…&p=hybrid&p=graph[&p=vector][&mode=…][&domain=…&material=…&method=…&condition=…].
 * The URL is the whole comparison, so it can be shared and reopened.
 */
export default async function ComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const pipelines = [...new Set(textParams(sp.p))].filter(isPipelineName).slice(0, 3);
  // The question, mode and filters as the answer routes read them (one schema); each column asks with them.
  const request = askRequestSchema.safeParse({
    question: textParam(sp.q, 2000),
    mode: textParam(sp.mode) || 'auto',
    filters: { domain: textParam(sp.domain), material: textParam(sp.material), method: textParam(sp.method), condition: textParam(sp.condition) },
  });
  const problem = !request.success ? `${requestProblem(request.error)}.` : pipelines.length < 2 ? 'Choose two or three pipelines to compare.' : null;
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <Link href="/" className="text-teal-800 hover:underline">
          ← Ask
        </Link>
      </p>
      <h1 className="text-xl font-semibold">Compare pipelines</h1>
      {problem || !request.success ? (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {problem} Start from the ask page and choose “compare” as the pipeline.
        </p>
      ) : (
        <>
          <p className="text-lg">{request.data.question}</p>
          <p className="text-xs text-slate-600">
            {pipelines.join(' · ')} · answer mode {request.data.mode}
            {request.data.filters && describeFilters(request.data.filters) && ` · filters ${describeFilters(request.data.filters)}`}
          </p>
          <CompareView
            question={request.data.question}
            pipelines={pipelines}
            descriptions={pipelineDescriptions}
            mode={request.data.mode}
            filters={Object.fromEntries(Object.entries(request.data.filters ?? {}).filter(([, v]) => v))}
          />
        </>
      )}
    </div>
  );
}
