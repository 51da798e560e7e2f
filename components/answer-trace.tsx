import type { TraceStep } from '@/lib/common/trace';
import { TierBadge } from './tier-badge';
import { TraceList } from './trace-list';

type Detail = Record<string, unknown>;
const detailOf = (trace: TraceStep[], step: string): Detail | null => (trace.find((t) => t.step === step)?.detail as Detail | undefined) ?? null;
const strings = (x: unknown): string[] => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);

/**
 * How the answer was found, folded away by default: the tier of tiered reasoning, the filters, the optimised query,
 * the sub-queries and the sufficiency checks of reformulation, then every step with its timing.
 */
export function AnswerTrace({ trace }: { trace: TraceStep[] }) {
  const aria = detailOf(trace, 'aria');
  const scope = detailOf(trace, 'scope');
  const optimise = detailOf(trace, 'optimise');
  const decompose = detailOf(trace, 'decompose');
  const checks = [
    ['first retrieval', detailOf(trace, 'sufficiency')],
    ['after the sub-queries', detailOf(trace, 'sufficiency-after-merge')],
  ] as const;
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="answer-trace">
      <summary className="cursor-pointer font-medium">
        How it was found{' '}
        {typeof aria?.tier === 'number' && (
          <span className="ml-1">
            <TierBadge tier={aria.tier} />
          </span>
        )}
      </summary>
      <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-slate-700">
        {scope && (
          <>
            <dt className="text-slate-500">Filters</dt>
            <dd>
              {String(scope.filters)}: {String(scope.papers)} papers
              {Number(scope.addedFromScopedSearch) > 0 ? `, ${String(scope.addedFromScopedSearch)} items found by searching them directly` : ''}
            </dd>
          </>
        )}
        {optimise && (
          <>
            <dt className="text-slate-500">Optimised query</dt>
            <dd>
              <q>{String(optimise.query)}</q> <span className="text-xs text-slate-500">by {String(optimise.by)}</span>
            </dd>
          </>
        )}
        {decompose && (
          <>
            <dt className="text-slate-500">Sub-queries</dt>
            <dd>
              {strings(decompose.subQueries).map((q) => (
                <q key={q} className="mr-2">
                  {q}
                </q>
              ))}
            </dd>
          </>
        )}
        {checks.map(([when, c]) =>
          c ? (
            <div key={when} className="contents">
              <dt className="text-slate-500">Sufficiency, {when}</dt>
              <dd>
                {c.sufficient ? 'sufficient' : 'not sufficient'} (coverage {String(c.coverage)}){c.reason ? `: ${String(c.reason)}` : ''}
              </dd>
            </div>
          ) : null,
        )}
        {!optimise && !aria && !scope && (
          <>
            <dt className="text-slate-500">Reformulation</dt>
            <dd>this pipeline searches the question as asked</dd>
          </>
        )}
      </dl>
      <details className="mt-2">
        <summary className="cursor-pointer text-xs text-slate-600">All {trace.length} steps, timed</summary>
        <TraceList trace={trace} />
      </details>
    </details>
  );
}
