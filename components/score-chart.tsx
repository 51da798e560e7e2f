'use client';

import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** Mean score per criterion and pipeline, with whiskers for the 95% bootstrap interval (recharts). */
export function ScoreChart({
  criteria,
  pipelines,
  max,
}: {
  criteria: { key: string; label: string }[];
  pipelines: { name: string; scores: Record<string, { mean: number; low: number; high: number } | null> }[];
  max: number;
}) {
  const colours = ['#0f766e', '#0369a1', '#7c3aed', '#b45309', '#be123c', '#4d7c0f', '#475569'];
  const data = criteria.map((c) => ({
    criterion: c.label,
    ...Object.fromEntries(
      pipelines.flatMap((p): [string, number | number[] | null][] => {
        const s = p.scores[c.key];
        return s
          ? [
              [p.name, s.mean],
              [`${p.name}-ci`, [s.mean - s.low, s.high - s.mean]],
            ]
          : [[p.name, null]];
      }),
    ),
  }));
  return (
    <div className="h-72 w-full" role="img" aria-label={`Mean scores with 95% intervals per pipeline: ${criteria.map((c) => c.label).join(', ')}`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="criterion" tick={{ fontSize: 12 }} />
          <YAxis domain={[0, max]} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(2) : String(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {pipelines.map((p, i) => (
            <Bar key={p.name} dataKey={p.name} fill={colours[i % colours.length]} isAnimationActive={false}>
              <ErrorBar dataKey={`${p.name}-ci`} width={4} strokeWidth={1.5} stroke="#0f172a" />
            </Bar>
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
