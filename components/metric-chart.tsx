'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** Grouped bars: one group per metric, one bar per pipeline (values 0–1). Charts by recharts. */
export function MetricChart({
  rows,
  metrics,
}: {
  rows: { pipeline: string; values: Record<string, number | null> }[];
  metrics: { key: string; label: string }[];
}) {
  const colours = ['#0f766e', '#0369a1', '#7c3aed', '#b45309', '#be123c', '#4d7c0f', '#475569'];
  const data = metrics.map((m) => ({ metric: m.label, ...Object.fromEntries(rows.map((r) => [r.pipeline, r.values[m.key] ?? null])) }));
  return (
    <div className="h-72 w-full" role="img" aria-label={`Chart of ${metrics.map((m) => m.label).join(', ')} per pipeline`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="metric" tick={{ fontSize: 12 }} />
          <YAxis domain={[0, 1]} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {rows.map((r, i) => (
            <Bar key={r.pipeline} dataKey={r.pipeline} fill={colours[i % colours.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
