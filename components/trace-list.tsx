import type { TraceStep } from '@/lib/common/trace';

/** The retrieval steps of one question, with their timing and what each step decided. */
export function TraceList({ trace }: { trace: TraceStep[] }) {
  return (
    <ol className="mt-2 space-y-1 text-xs">
      {trace.map((t, i) => (
        <li key={i} className="font-mono">
          <span className="font-semibold">{t.step}</span> <span className="text-slate-500">{t.ms} ms</span>{' '}
          <span className="break-all text-slate-700">{JSON.stringify(t.detail)}</span>
        </li>
      ))}
    </ol>
  );
}
