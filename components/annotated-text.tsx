/** A paragraph with its entity and quantity mentions highlighted; hovering shows type and normalised value. */

export interface MentionView {
  id: string;
  kind: string;
  type: string;
  start: number;
  end: number;
  key: string | null;
  formula: string | null;
  unit: string | null;
  valueMin: number | null;
  valueMax: number | null;
}

const entityStyle: Record<string, string> = {
  target: 'bg-rose-100 text-rose-900 ring-rose-300',
  precursor: 'bg-sky-100 text-sky-900 ring-sky-300',
  solvent: 'bg-cyan-50 text-cyan-900 ring-cyan-200',
  additive: 'bg-violet-100 text-violet-900 ring-violet-300',
  substrate: 'bg-lime-100 text-lime-900 ring-lime-300',
};

const fmt = (x: number) => (Math.abs(x) >= 1e5 || (Math.abs(x) < 1e-3 && x !== 0) ? x.toExponential(3) : String(Number.parseFloat(x.toPrecision(6))));

function describe(m: MentionView): string {
  if (m.kind === 'entity') return `${m.type}${m.formula ? ` · formula ${m.formula}` : m.key && !m.key.startsWith('name:') ? ` · ${m.key}` : ''}`;
  const v = m.valueMin === m.valueMax || m.valueMax === null ? fmt(m.valueMin ?? 0) : `${fmt(m.valueMin ?? 0)}–${fmt(m.valueMax)}`;
  return `${m.type} · ${v} ${m.unit ?? ''}`.trim();
}

export function AnnotatedText({ text, mentions }: { text: string; mentions: MentionView[] }) {
  const ordered = [...mentions].sort((a, b) => a.start - b.start || b.end - a.end);
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const m of ordered) {
    if (m.start < at || m.end > text.length || m.start >= m.end) continue; // overlapping or stale offsets
    if (m.start > at) parts.push(text.slice(at, m.start));
    const style = m.kind === 'entity' ? (entityStyle[m.type] ?? 'bg-slate-100 ring-slate-300') : 'bg-amber-50 text-amber-900 ring-amber-300';
    parts.push(
      <span key={m.id} title={describe(m)} data-mention={m.kind} data-type={m.type} className={`rounded px-0.5 ring-1 ring-inset ${style}`}>
        {text.slice(m.start, m.end)}
      </span>,
    );
    at = m.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
