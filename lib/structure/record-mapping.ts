import { boundedMemo } from '../common/bounded-memo.ts';
import { normaliseMaterial } from './materials.ts';
import { toCanonical, lookupUnit } from './quantities.ts';
import type { SynthesisMethod } from './classify.ts';
import type { PerformanceClaim } from './paragraph.ts';

/**
 * Imported structured records (text-mined solid-state / sol-gel recipes, SolarChem experiment rows) mapped into
 * the same synthesis/performance entries the paragraph extractor produces, so one retriever serves both.
 */

export interface MaterialRef {
  text: string;
  key: string;
  formula: string | null;
}

export interface SynthesisEntry {
  source: 'paragraph' | 'record';
  paragraphId?: string;
  recordId?: string;
  method: SynthesisMethod | string | null;
  targets: MaterialRef[];
  precursors: MaterialRef[];
  solvents: MaterialRef[];
  additives: MaterialRef[];
  substrates: MaterialRef[];
  conditions: {
    temperature: { text: string; canonical: number[]; unit: string; step: string | null }[];
    time: { text: string; canonical: number[]; unit: string; step: string | null }[];
    atmosphere: string[];
    [k: string]: unknown;
  };
}

/** A performance claim from a paragraph or a record row; record rows have no sentence and looser conditions. */
export interface PerformanceEntry extends Omit<PerformanceClaim, 'conditions' | 'sentence' | 'start'> {
  source: 'paragraph' | 'record';
  paragraphId?: string;
  recordId?: string;
  conditions: { text: string; dimension?: string; canonical?: number[]; unit?: string }[];
  sentence: string | null;
  start?: number;
}

// Recipe files name the same materials tens of thousands of times: normalise each spelling once.
const refs = boundedMemo((text: string): MaterialRef => {
  const m = normaliseMaterial(text);
  return { text, key: m.key, formula: m.formula };
}, 100_000);
// A copy: callers may change what they are given.
const ref = (text: string): MaterialRef => ({ ...refs(text) });

const recipeMethod: Record<string, SynthesisMethod> = { 'solid-state': 'solid-phase', 'sol-gel': 'sol-gel' };
const stepNames: Record<string, string> = {
  HeatingOperation: 'heating',
  DryingOperation: 'drying',
  QuenchingOperation: 'quenching',
  MixingOperation: 'mixing',
  ShapingOperation: 'shaping',
};

type Obj = Record<string, unknown>;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() && v !== 'None' ? v : null);

export function recordEntries(recordId: string, kind: string, data: Obj): { synthesis: SynthesisEntry[]; performance: PerformanceEntry[] } {
  if (kind.endsWith('-recipe')) return { synthesis: [recipeEntry(recordId, kind, data)], performance: [] };
  if (kind === 'solarchem-experiment') return { synthesis: [], performance: solarchemEntries(recordId, data) };
  return { synthesis: [], performance: [] };
}

function recipeEntry(recordId: string, kind: string, d: Obj): SynthesisEntry {
  const target = d.target as Obj | undefined;
  const targets = [str(target?.material_formula) ?? str(target?.material_string), ...arr(d.targets_string).map(str)].filter((x): x is string => !!x);
  const precursors = arr(d.precursors)
    .map((p) => str((p as Obj).material_formula) ?? str((p as Obj).material_string))
    .filter((x): x is string => !!x);
  const temperature: SynthesisEntry['conditions']['temperature'] = [];
  const time: SynthesisEntry['conditions']['time'] = [];
  const atmosphere = new Set<string>();
  for (const op of arr(d.operations) as Obj[]) {
    const step = stepNames[String(op.type)] ?? str(op.token) ?? null;
    const c = (op.conditions ?? {}) as Obj;
    for (const [field, list] of [
      ['heating_temperature', temperature],
      ['heating_time', time],
    ] as const) {
      for (const v of arr(c[field]) as Obj[]) {
        const values = arr(v.values).filter((x): x is number => typeof x === 'number');
        const spec = lookupUnit(String(v.units ?? ''));
        if (!values.length || !spec) continue;
        list.push({
          text: `${values.join(', ')} ${v.units}`,
          canonical: values.map((x) => toCanonical(x, spec)),
          unit: field === 'heating_time' ? 'h' : 'K',
          step,
        });
      }
    }
    for (const a of arr(c.heating_atmosphere)) if (typeof a === 'string') atmosphere.add(a);
  }
  return {
    source: 'record',
    recordId,
    method: recipeMethod[kind.replace(/-recipe$/, '')] ?? kind.replace(/-recipe$/, ''),
    targets: [...new Set(targets)].map(ref),
    precursors: [...new Set(precursors)].map(ref),
    solvents: [],
    additives: [],
    substrates: [],
    conditions: { temperature, time, atmosphere: [...atmosphere] },
  };
}

/** SolarChem rows: product yields (µmol g⁻¹ h⁻¹ …) under the listed light source and reaction conditions. */
function solarchemEntries(recordId: string, d: Obj): PerformanceEntry[] {
  const material = [str(d.Catalyst), str(d.Co_catalyst) ? `+ ${str(d.Co_catalyst)}` : null].filter(Boolean).join(' ') || null;
  const conditions = [
    str(d.Light_source) && { text: `light: ${d.Light_source}${str(d.Lamp) ? ` (${d.Lamp})` : ''}` },
    typeof d.T_C === 'number' && { text: `${d.T_C} °C`, dimension: 'temperature', canonical: [toCanonical(d.T_C, lookupUnit('°C')!)], unit: 'K' },
    str(d.Reductant) && { text: `reductant: ${d.Reductant}` },
    typeof d.Reaction_time_h === 'number' && { text: `${d.Reaction_time_h} h`, dimension: 'time', canonical: [d.Reaction_time_h], unit: 'h' },
  ].filter(Boolean) as PerformanceEntry['conditions'];
  const out: PerformanceEntry[] = [];
  for (const [field, value] of Object.entries(d)) {
    const m = /^(.+)_mol_(gh|g|m2h)$/.exec(field);
    if (!m || typeof value !== 'number') continue;
    const unit = { gh: 'µmol g^-1 h^-1', g: 'µmol g^-1', m2h: 'µmol m^-2 h^-1' }[m[2] as 'gh' | 'g' | 'm2h'];
    out.push({
      source: 'record',
      recordId,
      material,
      materialKey: str(d.Catalyst) ? normaliseMaterial(String(d.Catalyst)).key : null,
      property: `${m[1]} production rate`,
      value: [value],
      unit,
      canonical: [value],
      canonicalUnit: unit,
      conditions,
      sentence: null,
    });
  }
  return out;
}
