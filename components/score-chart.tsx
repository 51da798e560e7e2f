/**
 * A forest plot: per criterion, each pipeline's mean as a dot on its 0–max scale with a line across its 95%
 * interval, so overlapping intervals read at a glance. Plain elements sized in percent: exact positions, no
 * chart library needed for dots and lines.
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
            <p className="font-medium text-slate-700">
              {c.label} (0–{scale})
            </p>
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
          </div>
        );
      })}
    </div>
  );
}
