import { normaliseFormula } from '../structure/formula.ts';
import type { Recipe, StepKind } from './recipe.ts';

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
  /** "final heating", "earlier heating", "drying". */
  label: string;
  kind: StepKind;
  /** The words papers use for it, most used first ("calcined", "sintered"). */
  words: Tally[];
  records: number;
  temperatureC: Spread | null;
  hours: Spread | null;
  atmospheres: Tally[];
}

export interface RecipeSummary {
  /** Recipes summarised (those of the method asked, when one is). */
  total: number;
  /** Of which their target is the material itself; the rest are its variants (doped, off-stoichiometric). */
  exact: number;
  variants: Tally[];
  papers: number;
  precursors: Tally[];
  /** The most common order of operations and how many recipes follow it. */
  sequence: Tally | null;
  steps: StepSummary[];
  typical: Recipe[];
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
  const by = new Map<string, { names: Map<string, number>; ids: Set<string> }>();
  for (const it of items) {
    let t = by.get(it.key);
    if (!t) by.set(it.key, (t = { names: new Map(), ids: new Set() }));
    t.names.set(it.name, (t.names.get(it.name) ?? 0) + 1);
    t.ids.add(it.recordId);
  }
  return [...by.values()]
    .map((t) => ({ name: [...t.names].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0][0], count: t.ids.size, recordIds: [...t.ids] }))
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
 * The summary of `recipes` (all of one material, one method when one was asked). `exactIds`: the recipes whose
 * target is the material itself.
 */
export function summariseRecipes(recipes: Recipe[], exactIds: Set<string>): RecipeSummary {
  const precursors = tally(recipes.flatMap((r) => r.precursors.map((p) => ({ name: p.name, key: p.key, recordId: r.id }))));
  const orderOf = new Map(recipes.map((r) => [r, operationOrder(r).join(' → ')]));
  const orders = tally(recipes.map((r) => ({ name: orderOf.get(r)!, key: orderOf.get(r)!, recordId: r.id })).filter((o) => o.name));
  // The final heating of each recipe (its calcination or sintering) apart from the heatings before it.
  const heated = recipes.map((r) => ({ recipe: r, heatings: r.steps.filter((s) => s.kind === 'heating' && (s.temperatureC !== null || s.hours !== null)) }));
  const final = heated.filter((h) => h.heatings.length).map((h) => ({ recipe: h.recipe, step: h.heatings[h.heatings.length - 1] }));
  const earlier = heated.flatMap((h) => h.heatings.slice(0, -1).map((step) => ({ recipe: h.recipe, step })));
  const drying = recipes.flatMap((r) => r.steps.filter((s) => s.kind === 'drying' && s.temperatureC !== null).map((step) => ({ recipe: r, step })));
  const steps = [
    ...(earlier.length ? [stepSummary('earlier heating', 'heating', earlier)] : []),
    ...(final.length ? [stepSummary(earlier.length ? 'final heating' : 'heating', 'heating', final)] : []),
    ...(drying.length ? [stepSummary('drying', 'drying', drying)] : []),
  ];
  const finalOf = new Map(final.map((f) => [f.recipe, f.step]));
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
  // Recipes of the material itself first: a variant's recipe is typical of the variant.
  const exactFirst = (r: Recipe) => (exactIds.has(r.id) ? 0 : 1);
  for (const r of [...recipes].sort((a, b) => exactFirst(a) - exactFirst(b) || score(b) - score(a) || a.id.localeCompare(b.id))) {
    const paper = r.doi ?? r.id;
    if (seen.has(paper)) continue;
    seen.add(paper);
    typical.push(r);
    if (typical.length === 3) break;
  }
  return {
    total: recipes.length,
    exact: recipes.filter((r) => exactIds.has(r.id)).length,
    variants: tally(recipes.filter((r) => !exactIds.has(r.id)).map((r) => ({ name: r.targets[0] ?? '?', key: r.targets[0] ?? '?', recordId: r.id }))),
    papers: new Set(recipes.map((r) => r.doi ?? r.id)).size,
    precursors,
    sequence: orders[0] ?? null,
    steps,
    typical,
  };
}
