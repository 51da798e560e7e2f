import type { Evidence } from '../evidence/model.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import { isElementTerm, materialTerms } from '../retrieval/facets.ts';
import { compositeMentions } from '../retrieval/gate/grounding.ts';
import { type QuestionAnalysis, READ_SHAPE_PROBABILITY, writtenName } from '../retrieval/question.ts';
import { findProperties, propertyEntry } from '../structure/properties.ts';
import { textFacets } from '../structure/terms.ts';

/**
 * Two-sided comparisons ("Which has the higher ionic conductivity at 800 °C, YSZ or GDC?", "Compare the capacity of
 * LiCoO2 and NMC", "BZY vs BZCY proton conductivity"): each side is retrieved on its own, under the same property and
 * conditions, so a side that the joint question's ranking leaves out still gets its evidence — and the answer can say
 * a side has none rather than crown the other.
 */

/** A compared side's value as the side's own value question ("What is the Tc of A?") answers it. */
export type SideValue = NonNullable<RetrievalResult['sideValues']>[number];

export interface Side {
  key: string;
  /** Every material term the question's name of this side reads as ("TiO2": the formula and the name). */
  keys: string[];
  name: string;
}

/**
 * "A or B", "A vs B", "between A and B", "compare A and B", and a yes/no question weighing one against the other
 * ("Is the Tc of A higher than that of B?", "Does A have a lower ASR than B?"): a question that names its sides.
 */
const TWO_SIDED = (body: string) =>
  /\b(?:or|vs\.?|versus|between)\b/i.test(body) ||
  // One side chosen over the other ("would you pick A over B if …", "prefer A over B for …").
  /\b(?:pick(?:s|ed|ing)?|prefer(?:s|red|ring)?|choos(?:e|es|ing)|chose|select(?:s|ed|ing)?|favou?r(?:s|ed|ing)?|recommend(?:s|ed|ing)?|take|use)\b.*\bover\b/i.test(
    body,
  ) ||
  (/\bcompar(?:e[ds]?|ing|ison)\b/i.test(body) && /\b(?:and|with|to)\b/i.test(body)) ||
  askedIfBeyond(body);

/** A yes/no question whether one side is beyond the other ("Is A more conductive than B?", "Does A have a higher … than B?"). */
export const askedIfBeyond = (body: string): boolean => YES_NO_THAN.test(body);
const YES_NO_THAN = /^\s*(?:is|are|was|were|does|do|did|has|have)\b.*\b(?:higher|lower|greater|larger|smaller|bigger|more|less|better|worse)\b.*\bthan\b/i;

/** Asking to weigh the sides ("which is better, LSM or LSCF?", "LSM vs LSCF"), where no property names what by. */
const WEIGHED = /\b(?:vs\.?|versus|compar(?:e[ds]?|ing|ison)|better|worse|superior|inferior|preferable|preferred|differ(?:s|ence|ences)?)\b/i;

/**
 * The sides a comparison question names (two to four materials), or null when it is not one: a property to compare
 * them by, or words that weigh them ("which is better …, A or B").
 */
export function comparedSides(analysis: QuestionAnalysis): Side[] | null {
  if (analysis.intent === 'which-paper') return null;
  // By its wording, or as the reader reads its construction ("{A} vs {B}: who wins in conductivity?").
  const readAsComparison = analysis.reading.probabilities.comparison >= READ_SHAPE_PROBABILITY;
  if (!readAsComparison && (!TWO_SIDED(analysis.body) || (!analysis.properties.length && !WEIGHED.test(analysis.body)))) return null;
  const named = namedMaterials(analysis);
  // A material the question names as a condition ("in wet H2", "on a YSZ electrolyte") is not a side, unless too
  // few sides are left without it.
  const sides = named.filter((m) => !materialCondition(analysis.body, m));
  const kept = sides.length >= 2 ? sides : named;
  return kept.length < 2 || kept.length > 4 ? null : kept;
}

/** A preposition of condition and the words that may stand between it and a material ("in humidified", "on a"). */
const CONDITION_BEFORE =
  /\b(?:in|under|on|over|atop|through)\s+(?:(?:a|an|the|wet|dry|humidified|humid|pure|flowing|static|dense|porous|thin|[\d.]+\s?%)\s+)*$/i;

/** The phrase naming a material as a condition ("in wet H2"), or null when it is named otherwise. */
function materialCondition(body: string, material: Side): string | null {
  const at = body.indexOf(material.name);
  if (at < 0) return null;
  const before = CONDITION_BEFORE.exec(body.slice(Math.max(0, at - 40), at));
  if (!before) return null;
  const after = /^[\w.()+−-]*(?:\s+(?:electrolytes?|substrates?|supports?|atmospheres?|gas))?/.exec(body.slice(at + material.name.length))?.[0] ?? '';
  return `${before[0]}${material.name}${after}`.trim();
}

/** The conditions a comparison names by material ("in wet H2"), for each side's own question. */
function materialConditions(analysis: QuestionAnalysis, sides: readonly Side[]): string[] {
  const names = new Set(sides.map((s) => s.name));
  return namedMaterials(analysis)
    .filter((m) => !names.has(m.name))
    .flatMap((m) => materialCondition(analysis.body, m) ?? []);
}

/** The materials a question names, one per name as written ("TiO2" reads as a formula and as a name, and is one). */
export function namedMaterials(analysis: QuestionAnalysis): Side[] {
  // Single elements name atmospheres and dopants ("in hydrogen"), not materials asked about.
  const keys = analysis.materials.filter((m) => !isElementTerm(m));
  const byName = new Map<string, Side>();
  for (const key of keys) {
    const name = writtenName(analysis, key);
    const side = byName.get(name);
    if (side) side.keys.push(key);
    else byName.set(name, { key, keys: [key], name });
  }
  // A name read inside a longer one ("C3N4" of "g-C3N4", "LSM" of "LSM-YSZ") is that one's, not a side of its own.
  const sides = [...byName.values()];
  const within = (inner: Side, outer: Side) =>
    inner !== outer &&
    outer.name.length > inner.name.length &&
    new RegExp(`(?:^|[^A-Za-z0-9])${inner.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^A-Za-z0-9])`).test(outer.name);
  for (const inner of sides) {
    const outer = sides.find((o) => within(inner, o));
    if (outer) outer.keys.push(...inner.keys);
  }
  return sides.filter((inner) => !sides.some((o) => within(inner, o)));
}

/**
 * The asked property as the question words it ("ionic conductivity", "peak power density"): its span, with the next
 * word when that word ends the lexicon's name for it (a span "peak power" before "density").
 */
export function askedPropertyWords(analysis: QuestionAnalysis): string | null {
  const span = analysis.propertySpans[0];
  if (!span) return null;
  const written = analysis.body.slice(span.start, span.end);
  const label = analysis.properties.map((p) => propertyEntry(p)?.label.toLowerCase() ?? '').find(Boolean) ?? '';
  // An adjective ("more conductive") names the property by its label.
  if (!findProperties(written).length) return label || null;
  const next = /^\s+([A-Za-z]+)/.exec(analysis.body.slice(span.end));
  return next && label.split(' ').includes(next[1].toLowerCase()) && !written.toLowerCase().includes(next[1].toLowerCase()) ? `${written} ${next[1]}` : written;
}

/**
 * The question for one side: the property as the question names it, of that side, under the question's conditions;
 * without a property, the question without the other sides' names ("Which is better for SOFC cathodes, LSM?").
 */
export function sideQuestion(analysis: QuestionAnalysis, side: Side, sides: readonly Side[] = [side]): string {
  if (!analysis.properties.length) {
    let q = analysis.body;
    const joined = '(?:or|and|vs\\.?|versus|with|to)';
    for (const other of sides) {
      if (other.name === side.name) continue;
      const name = other.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const before = new RegExp(`\\s*,?\\s+${joined}\\s+${name}(?![\\w])`, 'i');
      const after = new RegExp(`(?<![\\w])${name}\\s+${joined}\\s+`, 'i');
      q = before.test(q) ? q.replace(before, '') : after.test(q) ? q.replace(after, '') : q.replace(other.name, '');
    }
    return q
      .replace(/\s+([?,.])/g, '$1')
      .replace(/\s{2,}/g, ' ')
      .trim();
  }
  const property = askedPropertyWords(analysis) ?? analysis.properties.join(' ');
  const conditions = [...materialConditions(analysis, sides), ...analysis.quantities.map((q) => `at ${q.text}`)].join(' ');
  return `What is the ${property} of ${side.name}${conditions ? ` ${conditions}` : ''}?`;
}

/** Whether a value's material is this side alone (not a composite naming it: "Ni-YSZ" is no YSZ value). */
export function isSide(material: string | null, side: Side): boolean {
  if (!material) return false;
  // Joined to another material or element ("Ni-YSZ", "LSM/YSZ", "Pt@GDC"): a composite, not the side.
  const parts = material.split(/\s*[-–/@+]\s*/).filter(Boolean);
  if (parts.length > 1 && parts.some((p) => /^[A-Z]/.test(p) && p !== side.name && !p.startsWith(side.name))) return false;
  const f = textFacets(material);
  const terms = [...materialTerms(f.formulas, f.materials)].filter((t) => !isElementTerm(t));
  return terms.some((t) => side.keys.includes(t)) && terms.every((t) => side.keys.includes(t));
}

/**
 * Whether a sentence names a composite of this side ("Ni-YSZ", "LSM/YSZ", "Pt@GDC", "GDC–YSZ bilayer"): a value it
 * states may be the composite's even where it also names the side alone ("a Ni-YSZ composite based on coarse YSZ
 * reaches 1000 S/cm"), so it gives no value of the side.
 */
export function namesCompositeOf(sentence: string, side: Side): boolean {
  return compositeMentions(sentence, side.name).some(Boolean);
}

/**
 * The result with each side's own evidence added after its own (a side's top items, once each), retrieved by
 * `retrieveSide` with the side's question; unchanged when the question compares no sides.
 */
export async function withSides(result: RetrievalResult, retrieveSide: (question: string) => Promise<RetrievalResult>): Promise<RetrievalResult> {
  const sides = comparedSides(result.analysis);
  if (!sides || result.recipes) return result;
  const t = performance.now();
  const added: Evidence[] = [];
  const seen = new Set(result.evidence.map((e) => e.id));
  const perSide: Record<string, number> = {};
  const sideValues: SideValue[] = [];
  for (const side of sides) {
    const r = await retrieveSide(sideQuestion(result.analysis, side, sides));
    const pool = [...r.evidence, ...(r.extras?.graphEvidence ?? [])];
    const items = [...r.evidence, ...(r.extras?.graphEvidence ?? []).slice(0, 8)].filter((e) => !seen.has(e.id));
    // The side's own value question's value, with the item it is read from (kept even where it ranks below those added).
    const valueItem = r.value ? pool.find((e) => e.id === r.value!.evidenceId) : undefined;
    if (r.value && valueItem) {
      sideValues.push({ side: side.name, value: r.value });
      if (!seen.has(valueItem.id) && !items.includes(valueItem)) items.push(valueItem);
    }
    for (const e of items) seen.add(e.id);
    perSide[side.name] = items.length;
    added.push(...items);
  }
  const detail = { sides: sides.map((s) => s.name), added: perSide, values: Object.fromEntries(sideValues.map((v) => [v.side, v.value.text])) };
  const step = { step: 'sides', ms: Math.round(performance.now() - t), detail };
  return { ...result, evidence: [...result.evidence, ...added], sideValues, trace: [...result.trace, step] };
}
