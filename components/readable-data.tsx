import { JsonTree } from './json-tree';

/**
 * Structured data (a record, a trace step's detail) as a person reads it: keys as words, lists joined, a value with
 * its units written together ("750 °C"), nested parts indented; the raw JSON only behind a "JSON" toggle.
 */

/** A key as words: "heating_temperature" and "heatingTemperature" both read "heating temperature". */
export const words = (key: string) =>
  key
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();

/** A quantity as the records write it: {values: [750], units: '°C'}, {value: 2, unit: 'h'}, {min, max, unit}. */
function quantityText(v: Record<string, unknown>): string | null {
  const unit = typeof v.units === 'string' ? v.units : typeof v.unit === 'string' ? v.unit : null;
  if (unit === null) return null;
  const values = Array.isArray(v.values)
    ? v.values
    : 'value' in v
      ? [v.value]
      : 'min' in v || 'max' in v
        ? [v.min, v.max].filter((x) => x !== undefined && x !== null)
        : null;
  if (!values?.length || !values.every((x) => typeof x === 'number' || typeof x === 'string')) return null;
  return `${values.join('–')} ${unit}`.trim();
}

export function plainText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x)))
    return value.length ? value.join(', ') : '—';
  if (typeof value === 'object' && !Array.isArray(value)) return quantityText(value as Record<string, unknown>);
  return null;
}

function Readable({ value, depth }: { value: unknown; depth: number }) {
  const plain = plainText(value);
  if (plain !== null) return <span>{plain}</span>;
  if (depth > 4) return <span className="text-slate-500">…</span>;
  if (Array.isArray(value))
    return (
      <ol className="list-decimal space-y-1 pl-5">
        {value.map((v, i) => (
          <li key={i}>
            <Readable value={v} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0));
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5">
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500">{words(k)}</dt>
          <dd className="min-w-0 break-words">
            <Readable value={v} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function ReadableData({ value, name = 'data' }: { value: unknown; name?: string }) {
  return (
    <div className="space-y-1 text-xs" data-testid="readable-data">
      <Readable value={value} depth={0} />
      <details className="text-slate-600">
        <summary className="cursor-pointer select-none">JSON</summary>
        <JsonTree value={value} name={name} />
      </details>
    </div>
  );
}
