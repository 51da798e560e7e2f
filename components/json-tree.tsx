/** A collapsible view of a JSON value (server-rendered <details>, no client JavaScript needed). */
export function JsonTree({ value, name, open = false, depth = 0 }: { value: unknown; name?: string; open?: boolean; depth?: number }) {
  const label = name !== undefined ? <span className="font-medium text-slate-700">{name}: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="pl-4 font-mono text-xs leading-5">
        {label}
        <span className={typeof value === 'string' ? 'text-emerald-800' : 'text-indigo-800'}>{JSON.stringify(value)}</span>
      </div>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <details open={open || depth === 0} className="pl-4 font-mono text-xs leading-5">
      <summary className="cursor-pointer select-none">
        {label}
        <span className="text-slate-500">{summary}</span>
      </summary>
      {entries.map(([k, v]) => (
        <JsonTree key={k} name={k} value={v} depth={depth + 1} />
      ))}
    </details>
  );
}
