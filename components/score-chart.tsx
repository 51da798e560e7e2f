/**
 * A forest plot: per criterion, each pipeline's mean as a dot on its 0–max scale with a line across its 95%
 * interval, so overlapping intervals read at a glance, and an axis with the scale's ticks under the pipelines.
 * Plain elements sized in percent: exact positions, no chart library needed for dots and lines.
 */
export function ScoreChart({
  criteria,
  pipelines,
}: {
  criteria: { key: string; label: string; max: number }[];
  pipelines: { name: string; scores: Record<string, { mean: number; low: number; high: number } | null> }[];
}) {
  const colours = ['#0f766e', '#0369a1', '#7c3aed', '#b45309', '#be123c', '#4d7c0f', '#475569'];
  return (
    <div className="space-y-3" role="img" aria-label={`Mean scores with 95% intervals per pipeline: ${criteria.map((c) => c.label).join(', ')}`}>
      {criteria.map((c) => {
        const scale = c.max;
        const pct = (x: number) => `${Math.max(0, Math.min(100, (100 * x) / scale))}%`;
        return (
          <div key={c.key} className="text-xs">
            <p className="font-medium text-slate-700">{c.label}</p>
            {pipelines.map((p, i) => {
              const s = p.scores[c.key];
              return (
                <div key={p.name} className="flex items-center gap-2">
                  <span className="w-28 truncate text-slate-600">{p.name}</span>
                  <div className="relative h-4 flex-1 rounded bg-slate-100">
                    {s && (
                      <>
                        <div
                          className="absolute top-1/2 h-0.5 -translate-y-1/2"
                          style={{ left: pct(s.low), width: `calc(${pct(s.high)} - ${pct(s.low)})`, background: colours[i % colours.length] }}
                        />
                        <div
                          className="absolute top-1/2 h-3 w-3 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white"
                          style={{ left: pct(s.mean), background: colours[i % colours.length] }}
                          title={`${p.name}: ${s.mean.toFixed(2)} [${s.low.toFixed(2)}, ${s.high.toFixed(2)}]`}
                        />
                      </>
                    )}
                  </div>
                  <span className="w-32 text-right tabular-nums text-slate-700">
                    {s ? `${s.mean.toFixed(2)} [${s.low.toFixed(2)}, ${s.high.toFixed(2)}]` : '—'}
                  </span>
                </div>
              );
            })}
            <ScaleAxis max={scale} />
          </div>
        );
      })}
      <p className="text-xs text-slate-500">Dot: mean score; line: its 95% interval (paired bootstrap over questions).</p>
    </div>
  );
}

/** Ticks of a 0–max scale under the plot's bars: five for 0–10 and 0–5 scales, halves for 0–1. */
function ScaleAxis({ max }: { max: number }) {
  const step = max >= 10 ? 2 : max >= 5 ? 1 : 0.5;
  const ticks = Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step);
  return (
    <div className="flex items-start gap-2" aria-hidden="true" data-testid="chart-axis">
      <span className="w-28" />
      <div className="relative h-4 flex-1 border-t border-slate-400">
        {ticks.map((t) => (
          <span key={t} className="absolute top-0 -translate-x-1/2 text-[10px] text-slate-500" style={{ left: `${(100 * t) / max}%` }}>
            <span className="mx-auto block h-1 w-px bg-slate-400" />
            {t}
          </span>
        ))}
      </div>
      <span className="w-32" />
    </div>
  );
}
