import { normaliseFormula } from '../structure/formula.ts';
import { dissolvable, phaseFormingHeating, withoutImpossibleValues } from './plausibility.ts';
import type { Recipe, RecipeStep, StepKind } from './recipe.ts';

/**
 * A recipe summary across records: what a chemist wants from forty papers' recipes for one material by one
 * method — how many there are, the usual precursors with their counts, the usual order of operations, the
 * temperatures, times and atmospheres of the steps that matter (median and range), and a few typical recipes in
 * full. Every figure keeps the records it was counted from, so each line of the answer cites them.
 */

export interface Tally {
  name: string;
  count: number;
  recordIds: string[];
  /** What its spellings were counted under (a precursor's key), when it differs from the name. */
  key?: string;
}

export interface Spread {
  median: number;
  /** The middle half of the values: what most recipes use, apart from the odd one out. */
  q1: number;
  q3: number;
  min: number;
  max: number;
  n: number;
  /** Recipes stating a value (a recipe with two earlier heatings gives two values). */
  recipes: number;
  /** The records stating each of the figures above (what a line citing the spread cites). */
  at: { median: string; q1: string; q3: string; min: string; max: string };
}

export interface StepSummary {
  /** "firing that forms the phase", "other heatings", "drying". */
  label: string;
  kind: StepKind;
  /** The words papers use for it, most used first ("calcined", "sintered"). */
  words: Tally[];
  records: number;
  temperatureC: Spread | null;
  hours: Spread | null;
  atmospheres: Tally[];
}

/** A short procedure a chemist could follow, drawn from the recipes that share the usual precursors. */
export interface Procedure {
  /** The precursors of the most common combination (or the most used ones, when no combination recurs). */
  precursors: Tally[];
  /** Recipes using exactly that combination (0: none recurs, the precursors are the most used ones). */
  sharing: number;
  /** How they are mixed: the most used mixing word. */
  mixing: string | null;
  /** The firing that forms the phase: median temperature and time, the most used atmosphere and word. */
  temperatureC: number | null;
  hours: number | null;
  atmosphere: string | null;
  word: string | null;
  /** The recipes it is drawn from, for citing. */
  recordIds: string[];
}

export interface RecipeSummary {
  /** Recipes of the material and its variants (those of the method asked, when one is). */
  total: number;
  /** Whose recipes the figures below are counted from: the material's own, or (when it has none) its variants'. */
  basis: 'own' | 'variants';
  /** Recipes the figures are counted from. */
  counted: number;
  /** Of which their target is the material itself; the rest are its variants (doped, off-stoichiometric). */
  exact: number;
  variants: Tally[];
  papers: number;
  precursors: Tally[];
  /** The most common order of operations and how many recipes follow it. */
  sequence: Tally | null;
  steps: StepSummary[];
  typical: Recipe[];
  procedure: Procedure | null;
  /** Recipes labelled with another route whose steps describe this one, counted here (set by the lookup). */
  relabelled?: number;
  /** Step values left out as impossible (a ramp rate read as a temperature, a firing hotter than the compound bears). */
  dropped: { values: number; recipes: number; examples: string[] };
}

/**
 * Whether a target is a variant of the asked formula: it holds every element of it and at most two more, and once
 * scaled to the same amount of the asked elements, each of them is within a fifth of its amount (LiFe0.9Mn0.1PO4
 * and Li1.05FePO4 are variants of LiFePO4; Li3Fe2(PO4)3 and LiMnPO4 are not, nor is LiNi0.5Mn1.5O4 of LiMn2O4).
 */
export function isVariant(asked: string, target: string): boolean {
  const a = normaliseFormula(asked)?.composition;
  const t = normaliseFormula(target)?.composition;
  if (!a || !t) return false;
  const askedElements = Object.keys(a);
  if (!askedElements.every((e) => (t[e] ?? 0) > 0)) return false;
  if (Object.keys(t).length - askedElements.length > 2) return false;
  const sumA = askedElements.reduce((s, e) => s + a[e], 0);
  const sumT = askedElements.reduce((s, e) => s + t[e], 0);
  const scale = sumA / sumT;
  return askedElements.every((e) => Math.abs(t[e] * scale - a[e]) <= 0.2 * a[e] + 1e-9);
}

function tally(items: { name: string; key: string; recordId: string }[]): Tally[] {
  const by = new Map<string, { key: string; names: Map<string, number>; ids: Set<string> }>();
  for (const it of items) {
    let t = by.get(it.key);
    if (!t) by.set(it.key, (t = { key: it.key, names: new Map(), ids: new Set() }));
    t.names.set(it.name, (t.names.get(it.name) ?? 0) + 1);
    t.ids.add(it.recordId);
  }
  return [...by.values()]
    .map((t) => {
      const name = [...t.names].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0][0];
      return { name, count: t.ids.size, recordIds: [...t.ids], ...(t.key !== name ? { key: t.key } : {}) };
    })
    .sort((x, y) => y.count - x.count || x.name.localeCompare(y.name));
}

function spread(values: { v: number; id: string }[]): Spread | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a.v - b.v || a.id.localeCompare(b.id));
  // Figures are values some recipe states (the lower middle of an even count), so each is cited to its record.
  const at = (q: number) => sorted[Math.floor((sorted.length - 1) * q)];
  const [min, q1, median, q3, max] = [0, 0.25, 0.5, 0.75, 1].map(at);
  return {
    median: median.v,
    q1: q1.v,
    q3: q3.v,
    min: min.v,
    max: max.v,
    n: sorted.length,
    recipes: new Set(sorted.map((x) => x.id)).size,
    at: { median: median.id, q1: q1.id, q3: q3.id, min: min.id, max: max.id },
  };
}

/** The order of a recipe's operations, runs of one kind (dissolved, added, stirred) said once, unnamed steps left out. */
export function operationOrder(r: Recipe): string[] {
  const kinds: string[] = [];
  for (const s of r.steps) {
    if (s.kind === 'other') continue;
    if (s.kind !== 'heating' && kinds[kinds.length - 1] === s.kind) continue;
    kinds.push(s.kind);
  }
  return kinds;
}

function stepSummary(label: string, kind: StepKind, steps: { recipe: Recipe; step: Recipe['steps'][number] }[]): StepSummary {
  return {
    label,
    kind,
    words: tally(
      steps.filter((s) => s.step.token).map((s) => ({ name: s.step.token!.toLowerCase(), key: s.step.token!.toLowerCase(), recordId: s.recipe.id })),
    ),
    records: new Set(steps.map((s) => s.recipe.id)).size,
    temperatureC: spread(steps.filter((s) => s.step.temperatureC !== null).map((s) => ({ v: s.step.temperatureC!, id: s.recipe.id }))),
    hours: spread(steps.filter((s) => s.step.hours !== null).map((s) => ({ v: s.step.hours!, id: s.recipe.id }))),
    atmospheres: tally(steps.flatMap((s) => s.step.atmosphere.map((a) => ({ name: a, key: a.toLowerCase(), recordId: s.recipe.id })))),
  };
}

/**
 * The summary of `recipes` (all of one material and its variants, of one method when one was asked). `exactIds`: the
 * recipes whose target is the material itself. The figures are counted from the material's own recipes; its
 * variants' are counted apart and stand in only when it has none. Impossible step values are left out and counted.
 */
export function summariseRecipes(recipes: Recipe[], exactIds: Set<string>): RecipeSummary {
  const checked = recipes.map(withoutImpossibleValues);
  const own = checked.filter((c) => exactIds.has(c.recipe.id));
  const basis = own.length ? own : checked;
  const counted = basis.map((c) => c.recipe);
  const precursors = tally(counted.flatMap((r) => r.precursors.map((p) => ({ name: p.name, key: p.key, recordId: r.id }))));
  const orderOf = new Map(counted.map((r) => [r, operationOrder(r).join(' → ')]));
  const orders = tally(counted.map((r) => ({ name: orderOf.get(r)!, key: orderOf.get(r)!, recordId: r.id })).filter((o) => o.name));
  // The heating that forms the phase (the hottest), apart from the others (drying off, pre-calcination, a cooler anneal).
  const forming = counted.map((r) => ({ recipe: r, step: phaseFormingHeating(r) }));
  const final = forming.filter((f): f is { recipe: Recipe; step: Recipe['steps'][number] } => f.step !== null);
  const finalOf = new Map(final.map((f) => [f.recipe, f.step]));
  const other = counted.flatMap((r) =>
    r.steps.filter((s) => s.kind === 'heating' && (s.temperatureC !== null || s.hours !== null) && s !== finalOf.get(r)).map((step) => ({ recipe: r, step })),
  );
  const drying = counted.flatMap((r) => r.steps.filter((s) => s.kind === 'drying' && s.temperatureC !== null).map((step) => ({ recipe: r, step })));
  const steps = [
    ...(final.length ? [stepSummary('firing that forms the phase', 'heating', final)] : []),
    ...(other.length ? [stepSummary('other heatings', 'heating', other)] : []),
    ...(drying.length ? [stepSummary('drying', 'drying', drying)] : []),
  ];
  const common = new Set(precursors.slice(0, 5).map((p) => p.name));
  const usual = orders[0]?.name ?? '';
  const score = (r: Recipe) => {
    const last = finalOf.get(r);
    return (
      r.precursors.filter((p) => common.has(p.name)).length +
      (orderOf.get(r) === usual ? 1 : 0) +
      (last?.temperatureC !== null && last?.hours !== null && last ? 1 : 0) +
      (r.paperId ? 0.5 : 0)
    );
  };
  const typical: Recipe[] = [];
  const seen = new Set<string>();
  for (const r of [...counted].sort((a, b) => score(b) - score(a) || a.id.localeCompare(b.id))) {
    const paper = r.doi ?? r.id;
    if (seen.has(paper)) continue;
    seen.add(paper);
    typical.push(r);
    if (typical.length === 3) break;
  }
  // Of the recipes the figures are counted from (a variant's values left out do not concern them).
  const dropped = basis.filter((c) => c.dropped.length);
  return {
    total: recipes.length,
    basis: own.length ? 'own' : 'variants',
    counted: counted.length,
    exact: own.length,
    variants: tally(
      checked.filter((c) => !exactIds.has(c.recipe.id)).map(({ recipe: r }) => ({ name: r.targets[0] ?? '?', key: r.targets[0] ?? '?', recordId: r.id })),
    ),
    papers: new Set(counted.map((r) => r.doi ?? r.id)).size,
    precursors,
    sequence: orders[0] ?? null,
    steps,
    typical,
    procedure: procedureOf(counted, precursors, finalOf),
    dropped: { values: dropped.reduce((n, c) => n + c.dropped.length, 0), recipes: dropped.length, examples: dropped.slice(0, 2).map((c) => c.dropped[0]) },
  };
}

/**
 * The procedure of the recipes that share the most common combination of precursors (at least two recipes), else of
 * every recipe with the most used precursors: their mixing, and the firing that forms the phase (median temperature
 * and time, the most used atmosphere). Every figure is one some recipe states (a median of an even count is the lower).
 */
function procedureOf(recipes: Recipe[], precursors: Tally[], firingOf: ReadonlyMap<Recipe, RecipeStep>): Procedure | null {
  if (!recipes.length) return null;
  const setOf = new Map(recipes.map((r) => [r, [...new Set(r.precursors.map((p) => p.key))].sort().join(' + ')]));
  const sets = tally(recipes.filter((r) => r.precursors.length).map((r) => ({ name: setOf.get(r)!, key: setOf.get(r)!, recordId: r.id })));
  // A sol-gel's procedure starts from what it dissolves: the most common combination with a dissolvable precursor
  // (Co(CH3COO)2 and LiOH for LiCoO2), not oxides a few mislabelled recipes only stirred (Co3O4 and Li2CO3).
  const solGel = recipes.every((r) => r.method === 'sol-gel');
  const fitting = solGel ? sets.filter((t) => t.name.split(' + ').some(dissolvable)) : sets;
  const recurring = [fitting[0], sets[0]].find((t) => t && t.count >= 2) ?? null;
  const from = recurring ? recipes.filter((r) => setOf.get(r) === recurring.name) : recipes;
  const keys = recurring ? new Set(recurring.name.split(' + ')) : null;
  const named = keys ? precursors.filter((p) => keys.has(p.key ?? p.name)) : precursors.slice(0, 4);
  const firings = from.flatMap((r) => (firingOf.has(r) ? [{ id: r.id, step: firingOf.get(r)! }] : []));
  const temperature = spread(firings.map((f) => ({ v: f.step.temperatureC!, id: f.id })));
  const hours = spread(firings.filter((f) => f.step.hours !== null).map((f) => ({ v: f.step.hours!, id: f.id })));
  const mostUsed = (items: { name: string; recordId: string }[]) => tally(items.map((x) => ({ ...x, key: x.name })))[0]?.name ?? null;
  return {
    precursors: named.slice(0, 6),
    sharing: recurring?.count ?? 0,
    mixing: mostUsed(from.flatMap((r) => r.steps.filter((s) => s.kind === 'mixing' && s.token).map((s) => ({ name: s.token!.toLowerCase(), recordId: r.id })))),
    temperatureC: temperature?.median ?? null,
    hours: hours?.median ?? null,
    atmosphere: mostUsed(firings.flatMap((f) => f.step.atmosphere.map((name) => ({ name, recordId: f.id })))),
    word: mostUsed(firings.filter((f) => f.step.token).map((f) => ({ name: f.step.token!.toLowerCase(), recordId: f.id }))),
    // Cited: a recipe of the combination, and those stating the median temperature and time.
    recordIds: [...new Set([from[0].id, ...(temperature ? [temperature.at.median] : []), ...(hours ? [hours.at.median] : [])])],
  };
}
