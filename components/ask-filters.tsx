'use client';

import type { AskFilters } from '@/lib/answer/service';

/** The options the filters offer, read from the library on the server. */
export interface FilterChoices {
  domains: { value: string; count: number }[];
  methods: readonly string[];
}

const FIELDS = ['domain', 'material', 'method', 'condition'] as const;

/** The filters that are set, for a URL or a request body. */
export const activeFilters = (f: AskFilters): AskFilters => Object.fromEntries(FIELDS.filter((k) => f[k]?.trim()).map((k) => [k, f[k]!.trim()]));

export const filterCount = (f: AskFilters) => Object.keys(activeFilters(f)).length;

/**
 * Optional filters that scope a question to some papers: a domain, a material in any spelling, a synthesis
 * method, a condition range in any unit. Folded away until opened; the summary says how many are set.
 */
export function AskFiltersFields({ value, onChange, choices }: { value: AskFilters; onChange: (f: AskFilters) => void; choices: FilterChoices }) {
  const set = (k: (typeof FIELDS)[number]) => (e: { target: { value: string } }) => onChange({ ...value, [k]: e.target.value });
  const n = filterCount(value);
  return (
    <details className="rounded border border-slate-200 px-3 py-2 text-sm" open={n > 0 || undefined}>
      <summary className="cursor-pointer text-slate-700">Filters{n ? ` (${n} set)` : ''}</summary>
      <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
        <label className="flex flex-col gap-1 text-xs text-slate-600">
          Domain
          <select value={value.domain ?? ''} onChange={set('domain')} className="rounded border border-slate-300 px-2 py-1 text-sm text-slate-900">
            <option value="">any domain</option>
            {choices.domains.map((d) => (
              <option key={d.value} value={d.value}>
                {d.value} ({d.count})
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs text-slate-600">
          Material
          <input
            value={value.material ?? ''}
            onChange={set('material')}
            maxLength={200}
            placeholder="YSZ, LaMnO3, graphene…"
            className="rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-slate-600">
          Synthesis method
          <select value={value.method ?? ''} onChange={set('method')} className="rounded border border-slate-300 px-2 py-1 text-sm text-slate-900">
            <option value="">any method</option>
            {choices.methods.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs text-slate-600">
          Condition range, with its unit
          <input
            value={value.condition ?? ''}
            onChange={set('condition')}
            maxLength={200}
            placeholder="600–800 °C, ≥ 1073 K, 1–5 GPa"
            className="rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"
          />
        </label>
      </div>
    </details>
  );
}
