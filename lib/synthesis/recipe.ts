import { boundedMemo } from '../common/bounded-memo.ts';
import type { RecipeRow } from '../db/records.ts';
import { normaliseMaterial } from '../structure/materials.ts';
import { lookupUnit, toCanonical } from '../structure/quantities.ts';
import { recipeTargets } from './catalogue.ts';

/**
 * A text-mined recipe (the solid-state and sol-gel datasets' JSON) read as a chemist reads one: its targets, its
 * precursors, and its operations in order, each with its temperature in °C, its time in hours and its atmosphere.
 * The datasets write a condition as a list of values or as a min–max with no values ("1100 C", "70–80 °C").
 */

export const STEP_KINDS = ['mixing', 'drying', 'heating', 'shaping', 'quenching', 'other'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export interface RecipeStep {
  kind: StepKind;
  /** The word the paper used ("calcined", "sintered", "stirred"). */
  token: string | null;
  /** °C: the stated value (the middle of a range), null when none is stated. */
  temperatureC: number | null;
  hours: number | null;
  atmosphere: string[];
  media: string[];
}

/** A catalogued record as read (its identity, paper and method), with what it says as a recipe. */
export interface Recipe extends Pick<RecipeRow, 'id' | 'kind' | 'doi' | 'paperId' | 'paperTitle' | 'method'> {
  targets: string[];
  /** Each precursor as written, with the key its spellings share. */
  precursors: { name: string; key: string }[];
  steps: RecipeStep[];
}

type Obj = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() && v !== 'None' ? v.trim() : null);

function stepKind(type: string, token: string | null): StepKind {
  const t = `${type} ${token ?? ''}`.toLowerCase();
  if (/heat|calcin|sinter|anneal|fir(?:e|ing)|pyroly/.test(t)) return 'heating';
  if (/dry|evaporat|dried/.test(t)) return 'drying';
  if (/mix|stir|dissolv|grind|mill|add/.test(t)) return 'mixing';
  if (/shap|press|pellet/.test(t)) return 'shaping';
  if (/quench|cool/.test(t)) return 'quenching';
  return 'other';
}

/** One condition value in the canonical unit (K for temperature, h for time): the value, or the middle of min–max. */
function conditionValue(conditions: unknown): number | null {
  for (const c of list(conditions) as Obj[]) {
    if (!c || typeof c !== 'object') continue;
    const unit = String(c.units ?? '').trim();
    const spec = lookupUnit(unit === 'C' ? '°C' : unit);
    if (!spec) continue;
    const values = list(c.values).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    const bounds = [c.min_value, c.max_value].filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    const v = values.length ? values.reduce((a, b) => a + b, 0) / values.length : bounds.length ? bounds.reduce((a, b) => a + b, 0) / bounds.length : null;
    if (v !== null) return toCanonical(v, spec);
  }
  return null;
}

/** Gases as the records name them either way ("argon", "Ar"): read as one, written by formula. */
const GASES: Record<string, string> = {
  argon: 'Ar',
  nitrogen: 'N2',
  oxygen: 'O2',
  hydrogen: 'H2',
  helium: 'He',
  ammonia: 'NH3',
  ar: 'Ar',
  n2: 'N2',
  o2: 'O2',
  h2: 'H2',
};
const gas = (name: string): string => GASES[name.toLowerCase()] ?? name;

/** °C from K as the paper wrote it: 973 K is 700 °C, not 699.9 (to a tenth where it was written so). */
function celsius(kelvin: number): number {
  const c = Math.round((kelvin - 273.15) * 10) / 10;
  return Math.abs(c - Math.round(c)) <= 0.15 ? Math.round(c) : c;
}

/** Water of crystallisation as recipes write it: "·9H2O", "•6H2O", "*4H2O", ".xH2O", " 6H2O", "-5H2O". */
const HYDRATE = /\s*[·•∙⋅*.\s-]\s*(?:\d+(?:\.\d+)?|x|n)?\s*H2O\s*$/i;

/**
 * The key a precursor is counted under: the salt without its water of crystallisation, so that Fe(NO3)3·9H2O and
 * Fe(NO3)3 are one precursor as a chemist counts them (the form most recipes write is the one shown).
 */
export const precursorKey = boundedMemo((name: string): string => {
  const salt = name.replace(HYDRATE, '');
  return normaliseMaterial(salt.length >= 2 ? salt : name).key;
}, 50_000);

export function readRecipe(row: RecipeRow): Recipe {
  const d = (row.data ?? {}) as Obj;
  const precursors = new Map<string, { name: string; key: string }>();
  for (const p of list(d.precursors) as Obj[]) {
    const name = text(p?.material_formula) ?? text(p?.material_string);
    if (name && !precursors.has(precursorKey(name))) precursors.set(precursorKey(name), { name, key: precursorKey(name) });
  }
  const steps: RecipeStep[] = [];
  for (const op of list(d.operations) as Obj[]) {
    if (!op || typeof op !== 'object') continue;
    const c = (op.conditions ?? {}) as Obj;
    const token = text(op.token);
    const kelvin = conditionValue(c.heating_temperature);
    const hours = conditionValue(c.heating_time);
    steps.push({
      kind: stepKind(String(op.type ?? ''), token),
      token,
      temperatureC: kelvin === null ? null : celsius(kelvin),
      hours: hours === null ? null : Math.round(hours * 1000) / 1000,
      atmosphere: [
        ...new Set(
          list(c.heating_atmosphere)
            .map(text)
            .filter((x): x is string => !!x)
            .map(gas),
        ),
      ],
      media: list(c.mixing_media)
        .map(text)
        .filter((x): x is string => !!x),
    });
  }
  return {
    id: row.id,
    kind: row.kind,
    doi: row.doi,
    paperId: row.paperId,
    paperTitle: row.paperTitle,
    method: row.method,
    targets: recipeTargets(d),
    precursors: [...precursors.values()],
    steps,
  };
}

const METHOD_NAMES: Record<string, string> = { 'sol-gel': 'sol-gel', 'solid-state-reaction': 'solid-state' };
/** A technique key as a chemist says it ("solid-state" for solid-state-reaction). */
export const methodName = (method: string | null): string => (method ? (METHOD_NAMES[method] ?? method.replace(/-/g, ' ')) : 'unstated method');

const num = (v: number): string => String(Number.parseFloat(v.toPrecision(4)));
/** A duration as written in a recipe: "30 min", "12 h", "2 days". */
export function formatHours(h: number): string {
  if (h < 1) return `${num(h * 60)} min`;
  if (h >= 48 && Number.isInteger(h / 24)) return `${num(h / 24)} days`;
  return `${num(h)} h`;
}
export const formatCelsius = (c: number): string => `${num(c)} °C`;

/** One step as a line of a recipe: "calcined at 700 °C for 10 h in Ar". */
export function describeStep(s: RecipeStep): string {
  // The kind leads ("heating: calcined at …") so a summary line naming the kind is checked against it.
  const parts = [s.token && s.kind !== 'other' ? `${s.kind}: ${s.token}` : (s.token ?? s.kind)];
  if (s.temperatureC !== null) parts.push(`at ${formatCelsius(s.temperatureC)}`);
  if (s.hours !== null) parts.push(`for ${formatHours(s.hours)}`);
  if (s.atmosphere.length) parts.push(`in ${s.atmosphere.join(', ')}`);
  if (s.media.length) parts.push(`in ${s.media.join(', ')}`);
  return parts.join(' ');
}

/** The whole recipe in one line: what an evidence item of it says. Runs of mixing words with no condition are one step. */
export function describeRecipe(r: Recipe): string {
  const steps: string[] = [];
  let mixing: string[] = [];
  const flush = () => {
    if (mixing.length) steps.push(`mixing: ${[...new Set(mixing)].join(', ')}`);
    mixing = [];
  };
  for (const s of r.steps) {
    if (s.kind === 'other' && s.temperatureC === null) continue;
    if (s.kind === 'mixing' && s.temperatureC === null && s.hours === null && !s.media.length && s.token) {
      mixing.push(s.token);
      continue;
    }
    flush();
    steps.push(describeStep(s));
  }
  flush();
  return `${r.targets[0] ?? 'target'} (${methodName(r.method)}) from ${r.precursors.map((p) => p.name).join(', ') || 'precursors not stated'}${steps.length ? `: ${steps.join('; ')}` : ''}.`;
}
