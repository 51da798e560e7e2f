import { normaliseFormula } from '../structure/formula.ts';
import type { Recipe, RecipeStep } from './recipe.ts';

/**
 * What a text-mined recipe cannot mean, checked before it is summarised: a heating "temperature" no furnace step has
 * (a ramp rate of 10 °C/min read as 10 °C; 2250 °C for a lithium phosphate), a time no step takes, and a route label
 * its own steps contradict (oxides and carbonates milled and fired, with no solution, labelled sol-gel). Values left
 * out are counted, so the answer can say how many; a recipe is counted under the route its steps describe.
 */

/** The lowest temperature a heating step that forms or densifies a phase is run at (below it: a ramp rate, a room temperature). */
const LOWEST_FIRING_C = 150;
/** The highest a laboratory furnace runs a ceramic firing at. */
const HIGHEST_FIRING_C = 1800;
/**
 * Elements whose compounds lose them by evaporation well below that (lithium, sodium and potassium oxides and salts;
 * lead and bismuth oxides): a firing of a target holding one is not reported hotter than this.
 */
const VOLATILE_LIMIT_C: Record<string, number> = { Li: 1300, Na: 1300, K: 1300, Rb: 1200, Cs: 1200, Pb: 1300, Bi: 1300 };
/** The longest a single step is held (three weeks). */
const LONGEST_STEP_H = 504;

/** The hottest a heating of `target` is believed: the furnace's limit, or that of an element it would lose. */
export function highestFiringC(target: string | undefined): number {
  const elements = target ? (normaliseFormula(target)?.elements ?? []) : [];
  return Math.min(HIGHEST_FIRING_C, ...elements.map((e) => VOLATILE_LIMIT_C[e] ?? HIGHEST_FIRING_C));
}

export interface CheckedRecipe {
  recipe: Recipe;
  /** Step values left out as impossible, each as "temperature 10 °C (heating)". */
  dropped: string[];
}

/** The recipe with its impossible values taken out of its steps (set to null), and what was taken out. */
export function withoutImpossibleValues(r: Recipe): CheckedRecipe {
  const highest = highestFiringC(r.targets[0]);
  const dropped: string[] = [];
  const steps = r.steps.map((s): RecipeStep => {
    let { temperatureC, hours } = s;
    if (s.kind === 'heating' && temperatureC !== null && (temperatureC < LOWEST_FIRING_C || temperatureC > highest)) {
      dropped.push(`temperature ${temperatureC} °C (${s.token ?? s.kind})`);
      temperatureC = null;
    }
    if (hours !== null && (hours <= 0 || hours > LONGEST_STEP_H)) {
      dropped.push(`time ${hours} h (${s.token ?? s.kind})`);
      hours = null;
    }
    return temperatureC === s.temperatureC && hours === s.hours ? s : { ...s, temperatureC, hours };
  });
  return { recipe: dropped.length ? { ...r, steps } : r, dropped };
}

// What solution chemistry leaves in a recipe: a solvent or chelating agent, a dissolved salt, a gel.
const SOLUTION_WORDS = /dissolv|solution|sol\b|gel|stir|chelat|reflux|hydroly|evaporat|citric|ethylene glycol|ammonia|titrat|aqueous/i;
const SOLUTION_PRECURSORS =
  /C6H8O7|citric|EDTA|C10H16N2O8|C2H6O2|glycol|NO3|nitrate|acetate|C2H3O2|CH3COO|O[CH]\d?H\d|alkoxide|ethoxide|isopropoxide|butoxide|acac|H2O$|ethanol|C2H5OH/i;
/** Whether a precursor is one a sol-gel dissolves or chelates with (a nitrate, acetate, alkoxide, citric acid …). */
export const dissolvable = (name: string): boolean => SOLUTION_PRECURSORS.test(name);

// What a solid-state route is made of: oxides, carbonates, hydroxides ground (or mixed) and fired.
const SOLID_PRECURSOR = /^(?:[A-Z][a-z]?\d*)+(?:O\d*|CO3|\(CO3\)\d*|\(OH\)\d*|OH)$/;

/**
 * The route a recipe's own steps describe, where they contradict its label: a "sol-gel" recipe with no trace of a
 * solution (no solvent, chelating agent or dissolved salt among its precursors, no dissolving, stirring or gel among
 * its steps) whose precursors are all oxides, carbonates or hydroxides, ground or mixed and fired, is a solid-state reaction.
 * Null when the steps agree with the label or say too little to tell.
 */
export function routeOfSteps(r: Recipe): string | null {
  if (r.method !== 'sol-gel' || r.precursors.length < 2) return null;
  const tokens = r.steps.map((s) => `${s.token ?? ''} ${s.media.join(' ')}`).join(' ');
  if (SOLUTION_WORDS.test(tokens) || r.precursors.some((p) => SOLUTION_PRECURSORS.test(p.name))) return null;
  if (!r.precursors.every((p) => SOLID_PRECURSOR.test(p.name.replace(/\s+/g, '')))) return null;
  // Powders ground or only mixed ("Co3O4 and Li2CO3 mixed, heated at 850 °C for 24 h in O2"), then fired.
  const mixed = r.steps.some((s) => /mill|grind|ground|mortar|pestle|mix|blend/i.test(s.token ?? ''));
  const fired = r.steps.some((s) => s.kind === 'heating');
  return mixed && fired ? 'solid-state-reaction' : null;
}

/**
 * The heating that forms the phase: the hottest of the recipe's heatings (a later, cooler anneal or an oxygen
 * treatment is not it), the last of equally hot ones. Null when no heating states a temperature.
 */
export function phaseFormingHeating(r: Recipe): RecipeStep | null {
  let best: RecipeStep | null = null;
  for (const s of r.steps) if (s.kind === 'heating' && s.temperatureC !== null && (!best || s.temperatureC >= best.temperatureC!)) best = s;
  return best;
}
