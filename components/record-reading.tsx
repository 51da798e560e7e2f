import type { RecipeView, RecordReading } from '@/lib/structure/recipe-view';

/**
 * A structured record read as a chemist reads it (lib/structure/recipe-view.ts): each synthesis as a recipe card,
 * then the measured values, then how many more the full record holds. Used by the provenance panel's Record tab and
 * the paper page; the record's own fields stay one click away beside it.
 */
export function RecordReadingView({ reading }: { reading: RecordReading }) {
  if (reading.recipes.length === 0 && reading.claims.length === 0)
    return <p className="text-slate-600">The record holds no recipe or measured value for this item; its fields are below.</p>;
  return (
    <div className="space-y-2">
      {reading.recipes.map((r, i) => (
        <RecipeCard key={i} r={r} />
      ))}
      {reading.claims.length > 0 && (
        <div data-testid="record-claims">
          <p className="text-xs font-medium text-slate-700">Measured values</p>
          <ul className="list-disc space-y-0.5 pl-5">
            {reading.claims.map((c, i) => (
              <li key={i}>
                {c.material ? <span className="font-medium">{c.material}</span> : <span className="text-slate-500">(no material named)</span>}: {c.property}{' '}
                {c.value}
                {c.conditions.length > 0 && <span className="text-slate-600"> ({c.conditions.join(', ')})</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      {reading.elsewhere > 0 && <p className="text-xs text-slate-500">{reading.elsewhere} more recipes or values are in the full record.</p>}
    </div>
  );
}

/** One synthesis read as a recipe: what was made, from what, in what, the steps with their conditions. */
function RecipeCard({ r }: { r: RecipeView }) {
  const row = (name: string, items: string[]) =>
    items.length > 0 && (
      <div className="contents">
        <dt className="text-slate-500">{name}</dt>
        <dd>{items.join(', ')}</dd>
      </div>
    );
  return (
    <article className="rounded border border-slate-200 p-2" aria-label="Recipe" data-testid="record-recipe">
      <p className="text-xs text-slate-500">
        Recipe{r.method ? ` · ${r.method}` : ''} · from {r.from}
      </p>
      <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5">
        {row('Made', r.targets)}
        {row('From', r.precursors)}
        {row('Solvents', r.solvents)}
        {row('Additives', r.additives)}
        {row('On', r.substrates)}
        {row('Atmosphere', r.atmosphere)}
        {r.reaction && row('Reaction', [r.reaction])}
      </dl>
      {r.steps.length > 0 && (
        <ol className="mt-1 list-decimal pl-5" aria-label="Steps">
          {r.steps.map((s, i) => (
            <li key={i}>
              {s.name}
              {s.conditions.length > 0 && `: ${s.conditions.join(', ')}`}
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}
