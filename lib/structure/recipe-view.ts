import { type PerformanceEntry, recordEntries, type SynthesisEntry } from './record-mapping.ts';

/**
 * A structured record as a chemist reads it (the provenance panel's Record tab): each synthesis as a recipe — what
 * was made, from what, in what, the steps in order with their conditions, the reaction — and each performance claim
 * as "material: property value (conditions)". The record's own fields stay available beside it; this is the reading.
 */
export interface RecipeView {
  method: string | null;
  /** Where the recipe was read: "this paragraph" (the cited one), "paragraph 3" of the paper, or "imported record". */
  from: string;
  targets: string[];
  precursors: string[];
  solvents: string[];
  additives: string[];
  substrates: string[];
  /** The balanced reaction when the record gives one ("0.5 Li2CO3 + 2 MnO2 → LiMn2O4 + …"). */
  reaction: string | null;
  /** Steps in the order the text or record gives them, each with its conditions ("calcined: 750 °C, 5 h, in air"). */
  steps: { name: string; conditions: string[] }[];
  atmosphere: string[];
}

export interface ClaimView {
  material: string | null;
  property: string;
  value: string;
  conditions: string[];
}

export interface RecordReading {
  /** A DOI or a title the record names, shown above its recipes. */
  source: string | null;
  recipes: RecipeView[];
  claims: ClaimView[];
  /** Recipes or claims of the paper's other paragraphs left out of the reading (the cited one comes first). */
  elsewhere: number;
}

type Obj = Record<string, unknown>;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() && v !== 'None' ? v.trim() : null);
const names = (refs: { text: string }[]) => [...new Set(refs.map((r) => r.text))];
// Records write Celsius as "C" and hours as "h"; a reader expects "°C".
const unit = (u: unknown) => (u === 'C' ? '°C' : u === 'K' ? 'K' : String(u ?? ''));

/** Recipes and claims shown at most for a paper's structure; the rest are counted. */
const SHOWN = 6;

/** The record of an item (an imported record, or the structure of a cited paragraph's paper) as recipes and claims. */
export function readRecord(record: { kind: string; value: unknown }, paragraphId?: string | null): RecordReading {
  const value = (record.value ?? {}) as Obj;
  if (record.kind === 'paper-structure') return readPaperStructure(value, paragraphId ?? null);
  const mapped = recordEntries('record', record.kind, value);
  const recipes = mapped.synthesis.map((e) => ({ ...recipeOf(e, 'imported record'), ...importedSteps(value) }));
  return { source: text(value.doi) ? `doi:${value.doi}` : text(value.title), recipes, claims: mapped.performance.map(claimOf), elsewhere: 0 };
}

function readPaperStructure(value: Obj, paragraphId: string | null): RecordReading {
  const synthesis = arr(value.synthesis) as SynthesisEntry[];
  const performance = arr(value.performance) as PerformanceEntry[];
  const here = (e: { paragraphId?: string }) => paragraphId !== null && e.paragraphId === paragraphId;
  // The cited paragraph's recipes and claims first; the paper's others after them, up to SHOWN.
  const ordered = <T extends { paragraphId?: string }>(xs: T[]) => [...xs.filter(here), ...xs.filter((x) => !here(x))];
  // Paragraphs are named as a reader counts them (the first is paragraph 1).
  const ordinals = new Map((arr(value.paragraphs) as { id?: string; ordinal?: number }[]).map((p) => [p.id, p.ordinal]));
  const where = (e: SynthesisEntry) => {
    if (e.source === 'record') return 'imported record';
    if (here(e)) return 'this paragraph';
    const ordinal = ordinals.get(e.paragraphId);
    return typeof ordinal === 'number' ? `paragraph ${ordinal + 1}` : 'a paragraph';
  };
  const recipes = ordered(synthesis).map((e) => recipeOf(e, where(e)));
  const claims = ordered(performance).map(claimOf);
  const paper = (value.paper ?? {}) as Obj;
  return {
    source: text(paper.doi) ? `doi:${paper.doi}` : text(paper.title),
    recipes: recipes.slice(0, SHOWN),
    claims: claims.slice(0, SHOWN),
    elsewhere: Math.max(0, recipes.length - SHOWN) + Math.max(0, claims.length - SHOWN),
  };
}

function recipeOf(e: SynthesisEntry, from: string): RecipeView {
  // Steps from the conditions the text pairs with a step word ("calcined at 750 °C for 5 h"), in order of appearance.
  const steps = new Map<string, string[]>();
  for (const c of [...(e.conditions.temperature ?? []), ...(e.conditions.time ?? [])]) {
    const name = c.step ?? 'conditions';
    steps.set(name, [...(steps.get(name) ?? []), c.text]);
  }
  return {
    method: e.method ?? null,
    from,
    targets: names(e.targets),
    precursors: names(e.precursors),
    solvents: names(e.solvents),
    additives: names(e.additives),
    substrates: names(e.substrates),
    reaction: null,
    steps: [...steps.entries()].map(([name, conditions]) => ({ name, conditions })),
    atmosphere: e.conditions.atmosphere ?? [],
  };
}

/** An imported recipe's operations as steps (the record's own order), with temperatures, times, atmospheres and media. */
function importedSteps(d: Obj): Pick<RecipeView, 'steps' | 'reaction'> {
  const steps = (arr(d.operations) as Obj[]).map((op) => {
    const c = (op.conditions ?? {}) as Obj;
    const quantity = (field: string) =>
      (arr(c[field]) as Obj[]).map((v) => {
        const values = arr(v.values).filter((x) => typeof x === 'number' || typeof x === 'string');
        return values.length ? `${values.join('–')} ${unit(v.units)}`.trim() : null;
      });
    const conditions = [
      ...quantity('heating_temperature'),
      ...quantity('heating_time'),
      ...arr(c.heating_atmosphere).map((a) => (text(a) ? `in ${a}` : null)),
      ...arr(c.mixing_media).map((m) => (text(m) ? `in ${m}` : null)),
      ...arr(c.mixing_device).map((m) => (text(m) ? `with ${m}` : null)),
    ].filter((x): x is string => x !== null);
    return {
      name:
        text(op.token) ??
        text(op.string) ??
        text(op.type)
          ?.replace(/Operation$/, '')
          .toLowerCase() ??
        'step',
      conditions,
    };
  });
  const reaction = text(d.reaction_string)?.replace(/\s*==\s*/, ' → ') ?? null;
  return { steps, reaction };
}

function claimOf(c: PerformanceEntry): ClaimView {
  const values = c.value?.length ? c.value.join('–') : '';
  return {
    material: c.material ?? null,
    property: c.property,
    value: `${values}${c.unit ? ` ${c.unit}` : ''}`.trim(),
    conditions: (c.conditions ?? []).map((x) => x.text),
  };
}
