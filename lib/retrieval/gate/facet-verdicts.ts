import type { Quantity } from '../../structure/quantities.ts';
import { statedInPlace } from '../coverage.ts';
import { type Facets, quantityMatch } from '../facets.ts';
import type { RetrievalIndex } from '../index.ts';
import type { MaterialVerdict } from './material-match.ts';
import type { QuestionAnalysis } from '../question.ts';
import type { FormVerdict } from './sample-forms.ts';

/**
 * The abstention decision's view of the best paper, facet by facet: what it states (in the question's notation or
 * another), what it contradicts (another value of the same thing, another material in its place), and what it leaves
 * unverified (it says nothing either way). A refusal is for contradictions and absences; an unverified facet lowers
 * the confidence and is named, and a refusal names what differs.
 */

/** One way the closest evidence differs from the question: what was asked, what the paper states instead. */
export interface FacetDifference {
  facet: 'material' | 'value' | 'condition' | 'technique';
  asked: string;
  /** What the paper states in its place; null when it states nothing of the kind. */
  stated: string | null;
}

/** A facet of the question the best paper neither states nor contradicts. */
export interface UnverifiedFacet {
  facet: 'material' | 'value' | 'condition';
  asked: string;
  /** Why it could not be checked ("the paper states no value of it"). */
  note: string;
}

export interface FacetVerdicts {
  materials: MaterialVerdict[];
  /** Question values the paper states another value in place of, with that value. */
  contradictedValues: { quantity: Quantity; stated: string }[];
  /** Question values the paper states nothing of. */
  unverifiedValues: Quantity[];
  /** The sample form the question names (single crystals, thin films …) against the paper; null when it names none. */
  form?: FormVerdict | null;
}

/** The question's values the best paper does not state (`missing`), each contradicted or unverified. */
export function judgeValues(
  index: RetrievalIndex,
  analysis: QuestionAnalysis,
  paperId: string,
  missing: readonly Quantity[],
): Omit<FacetVerdicts, 'materials'> {
  const contradictedValues: FacetVerdicts['contradictedValues'] = [];
  const unverifiedValues: Quantity[] = [];
  for (const q of missing) {
    // Every mention is read, the asked value first: a paper that states it somewhere, even in a sentence that does
    // not say what of (an onset beside a zero-resistance temperature), does not contradict it with another mention.
    const stated = statedAnywhere(index, paperId, q) ? null : statedInPlace(index, analysis, paperId, q);
    if (stated) contradictedValues.push({ quantity: q, stated });
    else unverifiedValues.push(q);
  }
  return { contradictedValues, unverifiedValues };
}

/** Whether any paragraph of the paper states the value, whatever its sentence names. */
function statedAnywhere(index: RetrievalIndex, paperId: string, q: Quantity): boolean {
  return (index.papers.get(paperId)?.paragraphIds ?? []).some((id) => quantityMatch(index.paragraphs.get(id)?.facets.quantities ?? [], q) > 0);
}

// A value introduced as a condition of the measurement ("at 550 °C", "under 2 GPa", "for 10 h").
const CONDITION_BEFORE = /(?:\b(?:at|under|in|for|during|after|upon)|@)\s*(?:~|about|around|approximately|roughly)?\s*$/i;
export const isConditionValue = (analysis: QuestionAnalysis, q: Quantity): boolean =>
  CONDITION_BEFORE.test(analysis.body.slice(Math.max(0, q.start - 24), q.start));

/** What differs between the question and the best paper, in the order a reader checks: material, value, condition. */
export function differences(
  analysis: QuestionAnalysis,
  v: FacetVerdicts,
  absentMaterials: string[],
  missingTechniques: { asked: string; stated: string | null }[],
): FacetDifference[] {
  return [
    ...v.materials.filter((m) => m.status === 'contradicted').map((m) => ({ facet: 'material' as const, asked: m.written, stated: m.stated })),
    ...absentMaterials.map((asked) => ({ facet: 'material' as const, asked, stated: null })),
    ...v.contradictedValues.map(({ quantity, stated }) => ({
      facet: isConditionValue(analysis, quantity) ? ('condition' as const) : ('value' as const),
      asked: quantity.text,
      stated,
    })),
    ...(v.form?.status === 'contradicted' ? [{ facet: 'condition' as const, asked: v.form.asked, stated: v.form.stated }] : []),
    ...missingTechniques.map((t) => ({ facet: 'technique' as const, ...t })),
  ];
}

/** The facets left unchecked: values the paper states nothing of, materials it states only as a family. */
export function unverifiedFacets(analysis: QuestionAnalysis, v: FacetVerdicts): UnverifiedFacet[] {
  return [
    ...v.unverifiedValues.map((q) => ({
      facet: isConditionValue(analysis, q) ? ('condition' as const) : ('value' as const),
      asked: q.text,
      note: isConditionValue(analysis, q) ? 'the paper does not say under what condition' : 'the paper states no value of it',
    })),
    ...(v.form?.status === 'unverified'
      ? [{ facet: 'condition' as const, asked: v.form.asked, note: 'the paper does not say what form its samples take' }]
      : []),
    ...v.materials
      .filter((m) => m.status === 'family')
      .map((m) => ({ facet: 'material' as const, asked: m.written, note: `the paper states its family (${m.stated}), not this composition` })),
  ];
}

/** What the best paper states instead of the values it lacks, so an abstention says what the corpus holds. */
export function statedInstead(facets: Facets, missing: Quantity[]): string {
  // The asked value stated of something else ("600 degC" of a sintering, a conductivity at 600 °C asked) is said so.
  const same = facets.quantities.find((f) => missing.some((q) => quantityMatch([f], q) > 0));
  if (same) return ` as a value of what is asked (it states ${same.text} of something else)`;
  const dims = new Set<string>(missing.map((q) => q.dimension));
  const stated = [...new Set(facets.quantities.filter((q) => dims.has(q.dimension)).map((q) => q.text))];
  return stated.length ? ` (it states ${stated.slice(0, 4).join(', ')}${stated.length > 4 ? ', …' : ''})` : '';
}
