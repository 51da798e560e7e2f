import { STEP_WORDS } from '../../structure/paragraph.ts';
import type { Quantity } from '../../structure/quantities.ts';
import { quantityFacet, quantityMatch } from '../facets.ts';

/** The steps that heat the sample: a generic "heated" is any of them, and any of them is heating. */
const HEATING = new Set(['heating', 'calcination', 'sintering', 'annealing', 'pyrolysis', 'hydro/solvothermal']);

/** The step words, each to find every mention. */
const ALL_STEP_WORDS = STEP_WORDS.map(([re, step]) => [new RegExp(re.source, 'gi'), step] as const);

/** The preparation steps a text names, with where each is named. */
export function stepsNamed(text: string): { step: string; at: number }[] {
  const out: { step: string; at: number }[] = [];
  for (const [re, step] of ALL_STEP_WORDS) for (const m of text.matchAll(re)) out.push({ step, at: m.index });
  return out.sort((a, b) => a.at - b.at);
}

function sameStep(asked: string, stated: string): boolean {
  return asked === stated || (HEATING.has(asked) && HEATING.has(stated) && (asked === 'heating' || stated === 'heating'));
}

/** The step a value at `at` is a value of: the nearest step named before it in its sentence, else the nearest after. */
function stepOf(steps: { step: string; at: number }[], at: number): string | null {
  const before = steps.filter((s) => s.at < at);
  return (before.length ? before[before.length - 1] : steps.find((s) => s.at > at))?.step ?? null;
}

export interface StepGrounding {
  /** The steps the question asks a value of ("the drying temperature", "how long was it calcined"). */
  asked: string[];
  /** Whether a cited sentence states the answer's value as a value of an asked step; null when nothing is to check. */
  grounded: boolean | null;
}

/**
 * Whether the value an answer gives is a value of the step the question asks about: "How long was it dried?" is not
 * answered by "dispersed with sonication for 1 h", nor "the drying temperature" by "reduced under microwaves at
 * 180 °C", however well the rest matches. A time or temperature is a value of a step, and the step is the property
 * asked (a Curie temperature is not any temperature; a drying temperature is not a calcination temperature). Null
 * when the question names no step, or the answer states no value of the asked dimension.
 */
export function stepGrounding(
  question: string,
  dimension: string | null,
  answered: readonly Quantity[],
  citedSentences: readonly { text: string; quantities: readonly Quantity[] }[],
): StepGrounding {
  const asked = dimension ? [...new Set(stepsNamed(question).map((s) => s.step))] : [];
  const values = answered.filter((q) => q.dimension === dimension);
  if (!asked.length || !values.length) return { asked, grounded: null };
  let stated = false;
  for (const s of citedSentences) {
    const mentions = s.quantities.filter((q) => q.dimension === dimension && values.some((v) => quantityMatch([quantityFacet(q)], v) > 0));
    if (!mentions.length) continue;
    stated = true;
    const steps = stepsNamed(s.text);
    if (mentions.some((q) => asked.some((a) => sameStep(a, stepOf(steps, q.start) ?? '')))) return { asked, grounded: true };
  }
  // The value is stated, but of no asked step (or not stated at all: the value check says so).
  return { asked, grounded: stated ? false : null };
}
