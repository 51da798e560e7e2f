import type { TraceStep } from '@/lib/common/trace';
import { plainText, words } from './readable-data';

/** One detail value in a line: plain values as they are, lists joined, anything deeper as compact JSON. */
const detailText = (v: unknown) => plainText(v) ?? (Array.isArray(v) ? v.map((x) => plainText(x) ?? JSON.stringify(x)).join('; ') : JSON.stringify(v));

/** The retrieval steps of one question, with their timing and what each step decided (the raw JSON behind a toggle). */
export function TraceList({ trace }: { trace: TraceStep[] }) {
  return (
    <div className="mt-2 space-y-1 text-xs">
      <ol className="space-y-1">
        {trace.map((t, i) => (
          <li key={i} data-testid="trace-step">
            <span className="font-semibold">{t.step}</span> <span className="text-slate-500">{t.ms} ms</span>
            {t.detail && Object.keys(t.detail).length > 0 && (
              <span className="text-slate-700">
                {' — '}
                {Object.entries(t.detail)
                  .map(([k, v]) => `${words(k)}: ${detailText(v)}`)
                  .join(' · ')}
              </span>
            )}
          </li>
        ))}
      </ol>
      <details className="text-slate-600">
        <summary className="cursor-pointer select-none">JSON</summary>
        <pre className="overflow-auto whitespace-pre-wrap break-all font-mono">{JSON.stringify(trace, null, 2)}</pre>
      </details>
    </div>
  );
}
