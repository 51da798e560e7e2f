import Link from 'next/link';
import { CompareView } from '@/components/compare-view';
import { askFiltersSchema } from '@/lib/answer/request';
import { ANSWER_MODES, describeFilters } from '@/lib/answer/service';
import { isPipelineName, pipelineDescriptions } from '@/lib/pipelines/registry';

export const dynamic = 'force-dynamic';

type Params = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
const all = (v: string | string[] | undefined) => (Array.isArray(v) ? v : v ? [v] : []);

/**
 * The compare screen: /compare?q=…&p=hybrid&p=graph[&p=vector][&mode=…][&domain=…&material=…&method=…&condition=…].
 * The URL is the whole comparison, so it can be shared and reopened.
 */
export default async function ComparePage({ searchParams }: { searchParams: Promise<Params> }) {
  const sp = await searchParams;
  const question = one(sp.q).trim().slice(0, 2000);
  const pipelines = [...new Set(all(sp.p))].filter(isPipelineName).slice(0, 3);
  const mode = (ANSWER_MODES as readonly string[]).includes(one(sp.mode)) ? one(sp.mode) : 'auto';
  const filters = askFiltersSchema.safeParse({ domain: one(sp.domain), material: one(sp.material), method: one(sp.method), condition: one(sp.condition) });
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
