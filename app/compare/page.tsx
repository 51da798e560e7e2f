import { type SearchParams, textParam, textParams } from '@/lib/common/params';
import Link from 'next/link';
import { CompareView } from '@/components/compare-view';
import { askFiltersSchema } from '@/lib/answer/request';
import { ANSWER_MODES, describeFilters } from '@/lib/answer/service';
import { isPipelineName, pipelineDescriptions } from '@/lib/pipelines/registry';

export const dynamic = 'force-dynamic';

/**
 * The compare screen: /compare?q=…&p=hybrid&p=graph[&p=vector][&mode=…][&domain=…&material=…&method=…&condition=…].
 * The URL is the whole comparison, so it can be shared and reopened.
 */
export default async function ComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const question = textParam(sp.q, 2000).trim();
  const pipelines = [...new Set(textParams(sp.p))].filter(isPipelineName).slice(0, 3);
  const mode = (ANSWER_MODES as readonly string[]).includes(textParam(sp.mode)) ? textParam(sp.mode) : 'auto';
  const filters = askFiltersSchema.safeParse({
    domain: textParam(sp.domain),
    material: textParam(sp.material),
    method: textParam(sp.method),
    condition: textParam(sp.condition),
  });
  const problem =
    question.length < 3
      ? 'Ask a question of at least 3 characters.'
      : pipelines.length < 2
        ? 'Choose two or three pipelines to compare.'
        : !filters.success
          ? filters.error.issues.map((i) => i.message).join('; ')
          : null;
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <Link href="/" className="text-teal-800 hover:underline">
          ← Ask
        </Link>
      </p>
      <h1 className="text-xl font-semibold">Compare pipelines</h1>
      {problem || !filters.success ? (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {problem} Start from the ask page and choose “compare” as the pipeline.
        </p>
      ) : (
        <>
          <p className="text-lg">{question}</p>
          <p className="text-xs text-slate-600">
            {pipelines.join(' · ')} · answer mode {mode}
            {describeFilters(filters.data) && ` · filters ${describeFilters(filters.data)}`}
          </p>
          <CompareView
            question={question}
            pipelines={pipelines}
            descriptions={pipelineDescriptions}
            mode={mode}
            filters={Object.fromEntries(Object.entries(filters.data).filter(([, v]) => v))}
          />
        </>
      )}
    </div>
  );
}
