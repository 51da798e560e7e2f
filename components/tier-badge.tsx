/** The tier tiered reasoning (aria) answered from, as a coloured label. */
const tierText: Record<number, string> = {
  1: 'Tier 1 — direct evidence',
  2: 'Tier 2 — by analogy',
  3: 'Tier 3 — nothing in the graph',
};
const tierClass: Record<number, string> = {
  1: 'bg-emerald-100 text-emerald-900',
  2: 'bg-amber-100 text-amber-900',
  3: 'bg-slate-200 text-slate-800',
};

export function TierBadge({ tier }: { tier: number }) {
  return (
    <span className={`rounded px-2 py-0.5 text-xs font-medium ${tierClass[tier] ?? tierClass[3]}`} data-testid="tier">
      {tierText[tier] ?? `Tier ${tier}`}
    </span>
  );
}
