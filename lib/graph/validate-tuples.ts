import { parseQuantities } from '../structure/quantities.ts';
import { canonicalUnits } from '../structure/quantities.ts';
import { propertyEntry } from '../structure/properties.ts';
import { isElementSymbol } from '../structure/formula.ts';
import type { TupleDraft } from './tuples.ts';

/**
 * The check a paper found by "look for papers" passes before its tuples join the graph (method C's post-hoc
 * validation of enriched knowledge). A tuple is
 * - rejected for its unit when its value is not in a unit of its property ("a critical temperature of 30 mA cm⁻²");
 * - rejected as impossible when it states what cannot be: a value beyond what the property can be (the property
 *   lexicon's range), a temperature below absolute zero, a formula with an element that does not exist ("Xq2O3"),
 *   a material doped with, made from or part of itself;
 * - flagged as a conflict (it joins the graph, marked) when another paper gives the same material's same property
 *   under the same conditions a clearly different value.
 * Papers imported any other way are not checked: their tuples pass the extractors' own rules (plausible.ts).
 */

export type TupleRule = 'unit' | 'impossible' | 'conflict';

export interface TupleProblem {
  rule: TupleRule;
  message: string;
}

/** A tuple already in the graph, as a conflict is judged against it. */
export interface ComparableTuple {
  id: string;
  paperId: string | null;
  subjectKey: string;
  objectKey: string;
  value: number | null;
  valueMax: number | null;
  unit: string | null;
  referenceNode: string | null;
}

/** "MgB2 has_property critical temperature (39 K) at 0 T": the tuple as one line, for checks and traces. */
export function tupleStatement(
  t: Pick<TupleDraft, 'relation' | 'value' | 'valueMax' | 'unit' | 'referenceNode'> & { subject: string; object: string },
): string {
  const value = t.value === null ? '' : ` (${t.value}${t.valueMax !== null && t.valueMax !== t.value ? `–${t.valueMax}` : ''}${t.unit ? ` ${t.unit}` : ''})`;
  return `${t.subject} ${t.relation.replace(/_/g, ' ')} ${t.object}${value}${t.referenceNode ? ` at ${t.referenceNode}` : ''}`;
}

const SELF_RELATIONS = new Set(['doped_with', 'synthesized_from', 'part_of', 'grown_on']);
// A word written like a formula: element-like symbols with counts ("Xq2O3", "La0.6Sr0.4CoO3").
const FORMULA_LIKE = /^(?:[A-Z][a-z]?(?:\d+(?:\.\d+)?)?)+$/;

/** The problem that keeps a tuple out of the graph, or null (a conflict is judged separately: `conflictsOf`). */
export function tupleProblem(t: TupleDraft): TupleProblem | null {
  // A word of an end written like a formula ("Nb3Gc films") whose symbols are not all elements.
  for (const e of [t.subject, t.object]) {
    for (const word of e.surface.match(/[A-Za-z0-9.]+/g) ?? []) {
      if (!FORMULA_LIKE.test(word) || !/\d/.test(word)) continue;
      const unknown = [...word.matchAll(/[A-Z][a-z]?/g)].map((m) => m[0]).find((symbol) => !isElementSymbol(symbol));
      if (unknown) return { rule: 'impossible', message: `“${word}” names no compound: ${unknown} is not an element` };
    }
  }
  if (SELF_RELATIONS.has(t.relation) && t.subject.key === t.object.key)
    return { rule: 'impossible', message: `${t.subject.surface} cannot be ${t.relation.replace(/_/g, ' ')} itself` };
  if (t.relation === 'has_property' && t.value !== null && t.object.key.startsWith('p:')) {
    const entry = propertyEntry(t.object.key.slice(2));
    const expected = entry?.dimension ? canonicalUnits[entry.dimension] : null;
    if (expected && t.unit && t.unit !== expected)
      return { rule: 'unit', message: `${t.unit} is not a unit of ${entry?.label ?? t.object.surface} (a ${entry?.dimension} in ${expected})` };
    const range = entry?.range;
    const high = t.valueMax ?? t.value;
    if (range?.min !== undefined && t.value < range.min)
      return { rule: 'impossible', message: `a ${entry?.label} of ${t.value} ${t.unit ?? ''} is below what one can be (${range.min})`.replace(/\s+\(/, ' (') };
    if (range?.max !== undefined && high > range.max)
      return { rule: 'impossible', message: `a ${entry?.label} of ${high} ${t.unit ?? ''} is beyond what one can be (${range.max})`.replace(/\s+\(/, ' (') };
    if (t.unit === 'K' && t.value < 0) return { rule: 'impossible', message: `${t.value} K is below absolute zero` };
  }
  if (t.referenceNode) {
    const below = parseQuantities(t.referenceNode).find((q) => q.dimension === 'temperature' && q.canonical.some((v) => v < 0));
    if (below) return { rule: 'impossible', message: `the condition “${t.referenceNode}” is below absolute zero` };
  }
  return null;
}

/** The condition's value in canonical units (null: none, or not a quantity), to tell "the same conditions". */
function conditionValue(node: string | null): { dimension: string; value: number } | null {
  if (!node) return null;
  const q = parseQuantities(node)[0];
  return q ? { dimension: q.dimension, value: q.canonical[0] } : null;
}

function sameConditions(a: string | null, b: string | null): boolean {
  if (!a && !b) return true;
  const x = conditionValue(a);
  const y = conditionValue(b);
  if (!x || !y) return (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();
  if (x.dimension !== y.dimension) return false;
  // Temperatures within 5 K; anything else within 10 %.
  return x.dimension === 'temperature' ? Math.abs(x.value - y.value) <= 5 : Math.abs(x.value - y.value) <= 0.1 * Math.max(Math.abs(x.value), Math.abs(y.value));
}

/** How far apart two values may be and still agree: their ranges overlap, or they differ by at most a quarter. */
export const CONFLICT_SHARE = 0.25;

function disagree(a: { value: number; valueMax: number | null }, b: { value: number; valueMax: number | null }): boolean {
  const [aLo, aHi] = [a.value, a.valueMax ?? a.value];
  const [bLo, bHi] = [b.value, b.valueMax ?? b.value];
  if (aLo <= bHi && bLo <= aHi) return false;
  const gap = aLo > bHi ? aLo - bHi : bLo - aHi;
  return gap > CONFLICT_SHARE * Math.max(Math.abs(aHi), Math.abs(bHi), 1e-12);
}

/** Tuples of other papers that give the same material's same property under the same conditions a different value. */
export function conflictsOf(t: TupleDraft, paperId: string, existing: ComparableTuple[]): ComparableTuple[] {
  if (t.relation !== 'has_property' || t.value === null) return [];
  const value = t.value;
  return existing.filter(
    (e) =>
      e.paperId !== paperId &&
      e.subjectKey === t.subject.key &&
      e.objectKey === t.object.key &&
      e.value !== null &&
      e.unit === t.unit &&
      sameConditions(e.referenceNode, t.referenceNode) &&
      disagree({ value, valueMax: t.valueMax }, { value: e.value, valueMax: e.valueMax }),
  );
}

export interface TupleValidation {
  /** The tuples that join the graph (conflicts among them, flagged). */
  accepted: TupleDraft[];
  rejected: { draft: TupleDraft; problem: TupleProblem }[];
  conflicts: { draft: TupleDraft; with: ComparableTuple[] }[];
}

/** Validates one paper's tuples against the rules and against the graph's tuples of the same materials. */
export function validateTuples(drafts: TupleDraft[], paperId: string, existing: ComparableTuple[]): TupleValidation {
  const out: TupleValidation = { accepted: [], rejected: [], conflicts: [] };
  for (const draft of drafts) {
    const problem = tupleProblem(draft);
    if (problem) {
      out.rejected.push({ draft, problem });
      continue;
    }
    out.accepted.push(draft);
    const clash = conflictsOf(draft, paperId, existing);
    if (clash.length) out.conflicts.push({ draft, with: clash });
  }
  return out;
}

/** Text of the rules, for the graph stamp of found papers (a change validates them again). */
export const validationRulesSource = (): string =>
  [FORMULA_LIKE.source, [...SELF_RELATIONS].join(','), CONFLICT_SHARE, tupleProblem, conditionValue, sameConditions, disagree, conflictsOf]
    .map(String)
    .join('\n');
