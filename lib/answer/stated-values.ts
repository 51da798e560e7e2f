import { type Evidence, provenanceOf } from '../evidence/model.ts';
import { sentenceMaterials } from '../graph/property-value-tuples.ts';
import { findProperties } from '../structure/properties.ts';
import { parseQuantities, type Quantity } from '../structure/quantities.ts';
import { splitSentences } from '../structure/sentences.ts';
import { joinBrokenWords, joinSplitFormulas, textFacets } from '../structure/terms.ts';
import { materialTerms } from '../retrieval/facets.ts';
import { titleOf } from './shapes/text.ts';
import type { QuantityAnswer } from '../retrieval/value.ts';
import type { ValueRow } from './types.ts';

/**
 * The values of one property the evidence states, a row per value: what it is of (the material its own sentence
 * binds, as the sentence writes it), the value as written, the temperature it was measured at, told apart from a
 * temperature the sample was made at ("the pellet sintered at 600 °C gave 543 mW/cm2 at 550 °C" is a value at
 * 550 °C), and the sentence's other quantities as conditions. A list stated "respectively" against a list of
 * temperatures gives a row per pair. The table and ranking answers are made of these rows.
 */

/**
 * Words that make the temperature after them one the sample was made or treated at, not one it was measured at;
 * the word itself (group 1) names the treatment in the condition's text ("sintered at 600 °C").
 */
const PROCESSING_BEFORE =
  /\b(sinter\w*|calcin\w*|anneal\w*|fir(?:ed|ing)|heat[- ]?treat\w*|treated|prepared|synthesi[sz]\w*|deposit\w*|grown|hot[- ]press\w*|pre-?treat\w*|reduced|dried|densified|co-?fired)\b[^.;,]{0,30}?(?:\bat\b|\bto\b|\bfrom\b|\bbetween\b)?\s*$/i;

/** Characters between a property's mention and a value of it, at most. */
const NEAR = 100;

/** A temperature of a sentence and, when the sample was made or treated at it, the treatment ("sintered"). */
interface StatedTemperature {
  quantity: Quantity;
  treatment: string | null;
}

function temperaturesOf(sentence: string, quantities: Quantity[]): StatedTemperature[] {
  return quantities
    .filter((q) => q.dimension === 'temperature')
    .map((q) => ({ quantity: q, treatment: PROCESSING_BEFORE.exec(sentence.slice(Math.max(0, q.start - 60), q.start))?.[1] ?? null }));
}

/** The material a value belongs to: "for"/"of" one just after it, else the last named before it, as written. */
function ownerOf(sentence: string, q: Quantity, materials: ReturnType<typeof sentenceMaterials>): string | null {
  const after = materials.find((m) => m.start >= q.end && m.start - q.end <= 60 && /\b(?:for|of|with)\b/i.test(sentence.slice(q.end, m.start)));
  const before = materials.filter((m) => m.end <= q.start).at(-1);
  let m = after ?? before;
  if (!m) return null;
  // "PrBa0.5Sr0.5Co2−xFexO5+δ (PBSCF)": an abbreviation in brackets after a formula names that formula.
  const i = materials.indexOf(m);
  if (i > 0 && /^\s*\(\s*$/.test(sentence.slice(materials[i - 1].end, m.start)) && /^\s*\)/.test(sentence.slice(m.end))) m = materials[i - 1];
  const written = sentence.slice(m.start, m.end);
  // "PrBa0.5Sr0.5Co2−xFexO5+δ (PBSCF)": the abbreviation the paper goes on to use is what a reader recognises.
  const abbreviation = /^\s*\(([A-Z][A-Za-z0-9-]{1,12})\)/.exec(sentence.slice(m.end));
  return abbreviation ? `${written.replace(/\s+/g, '')} (${abbreviation[1]})` : written.replace(/\s+/g, '');
}

/** The materials listed "for A, B and C" after a list of values, when there are as many as values (as written). */
function listedOwners(sentence: string, v: Quantity, materials: ReturnType<typeof sentenceMaterials>): string[] | null {
  const tail = sentence.slice(v.end, v.end + 200);
  if (!/^\s*(?:\([^)]*\)\s*)?for\b/i.test(tail)) return null;
  const until = sentence.indexOf('respectively', v.end);
  const listed = materials.filter((m) => m.start >= v.end && (until < 0 || m.end <= until));
  return listed.length === v.values.length ? listed.map((m) => sentence.slice(m.start, m.end)) : null;
}

/** The sentences an item states: a paragraph's or chunk's sentences, a graph tuple's source sentence. */
function sentencesOf(e: Evidence): string[] {
  if (e.kind === 'paragraph' || e.kind === 'chunk') return splitSentences(e.text).map((s) => s.text);
  if (e.kind === 'tuple') return provenanceOf(e, 'sentence').map((s) => s.text);
  return [];
}

/** An inequality between a property's mention and a number: the number bounds a range the property opens ("Tc < T < 240 K"). */
export const BOUND_BETWEEN = /[<>≤≥]/;

/** One stated value: a ValueRow with the temperature it was measured at (K) and the processing temperatures. */
export interface StatedValue extends ValueRow {
  /** The temperature the value was measured at, in K, when its sentence says. */
  measuredAtK: number | null;
  /** The lowest and highest temperature (K) of what it was measured at, a range or list ("500–700 °C") included. */
  measuredSpanK: [number, number] | null;
  /** That temperature as the sentence writes it ("800 °C", "500–700 °C"). */
  measuredAtText: string | null;
  /** Temperatures the sentence gives as processing (sintering, calcining…): as written ("sintered at 600 °C") and in K. */
  processing: { text: string; kelvin: number }[];
  /** The canonical material keys its sentence names (to keep the rows about a material a question asks about). */
  sentenceMaterials: string[];
  /** The sentence that states it (PDF-split words and formulas joined). */
  sentence: string;
}

/** What stands between a list of values and the temperatures right after it: "at", a bracket, a comma. */
const ADJACENT_AT = /^\s*[,(]?\s*(?:at|@)?\s*$/i;

/** One value of a list with the unit as the sentence writes it ("0.3 W cm−2" of "0.9, 0.62 and 0.3 W cm−2"). */
const at = (q: Quantity, i?: number) => {
  if (i === undefined) return q.text;
  const last = q.text.lastIndexOf(String(q.values.at(-1)));
  const unit = last >= 0 ? q.text.slice(last + String(q.values.at(-1)).length).trim() : q.unit;
  return `${formatValue(q.values[i])} ${unit || q.unit}`;
};
const formatValue = (v: number) => String(Number(v.toPrecision(6)));

export function statedValues(items: Evidence[], property: string, dimension: string): StatedValue[] {
  const rows: StatedValue[] = [];
  const seen = new Set<string>();
  for (const e of items) {
    for (const raw of sentencesOf(e)) {
      // PDF line breaks ("de- pendence") joined, as the graph reads sentences; offsets below index this text.
      const sentence = joinSplitFormulas(joinBrokenWords(raw));
      const mentions = findProperties(sentence).filter((p) => p.key === property);
      if (!mentions.length) continue;
      const quantities = parseQuantities(sentence);
      const temperatures = dimension === 'temperature' ? [] : temperaturesOf(sentence, quantities);
      // A value is the property's when it stands near a mention of it ("Tc of 39 K", "39 K … Tc"), and a temperature
      // property's value is never one the sample was made at ("annealed at 400 °C").
      const values = quantities.filter(
        (q) =>
          q.dimension === dimension &&
          q.canonical.length &&
          mentions.some(
            (m) =>
              (m.end <= q.start ? q.start - m.end : m.start - q.end) <= (dimension === 'temperature' ? 40 : NEAR) &&
              // "T2 behaviour in Tc < T < 240 K": a bound of a range the property opens is not its value.
              !BOUND_BETWEEN.test(m.end <= q.start ? sentence.slice(m.end, q.start) : sentence.slice(q.end, m.start)),
          ) &&
          // A transition temperature is stated in kelvin; °C in such a sentence is how the sample was made or kept.
          !(dimension === 'temperature' && (q.unit !== 'K' || PROCESSING_BEFORE.test(sentence.slice(Math.max(0, q.start - 60), q.start)))),
      );
      if (!values.length) continue;
      const { measuring, processing } = splitTemperatures(temperatures);
      const materials = sentenceMaterials(sentence);
      const named = materialKeysOf(sentence);
      const respectively = /\brespectively\b/i.test(sentence);
      // "0.027 Ω cm2, 0.11 Ω cm2 and 0.88 Ω cm2 at 800 °C, 700 °C and 600 °C, respectively": values written one by
      // one against as many temperatures after them, paired in order.
      const until = respectively ? sentence.search(/\brespectively\b/i) : -1;
      const singles = values.filter((q) => q.kind === 'single' && q.end <= until);
      const laterTemperatures = singles.length
        ? measuring.filter((t) => t.quantity.kind === 'single' && t.quantity.start > singles[singles.length - 1].end && t.quantity.end <= until)
        : [];
      const pairedSingle = new Map<Quantity, StatedTemperature>(
        respectively && singles.length > 1 && laterTemperatures.length === singles.length ? singles.map((q, i) => [q, laterTemperatures[i]]) : [],
      );
      for (const v of values) {
        const ownerOfValue = ownerOf(sentence, v, materials);
        // Other single quantities close to the value are its conditions ("at 0.7 V", "in 3% H2O"); lists far off are not.
        const others = quantities
          .filter((q) => q.dimension !== dimension && q.dimension !== 'temperature' && q.kind !== 'list')
          .filter((q) => Math.min(Math.abs(q.start - v.end), Math.abs(v.start - q.end)) <= 60)
          .map((q) => q.text);
        // "1.72, 1.05 and 0.56 W cm−2 at 800, 700 and 600 °C, respectively": the i-th value at the i-th temperature; so
        // too a list of as many temperatures right after the values without "respectively" ("0.01, 0.025 and 0.054 S cm–1
        // at 500, 600 and 700 °C"), which no other reading fits.
        const paired =
          v.values.length > 1
            ? measuring.find(
                (t) =>
                  t.quantity.values.length === v.values.length &&
                  (respectively || (t.quantity.kind === 'list' && t.quantity.start >= v.end && ADJACENT_AT.test(sentence.slice(v.end, t.quantity.start)))),
              )
            : undefined;
        // "0.826, 0.853 and 1.834 W cm−2 for PBMCo, PBMCo-3-Fe and PBMCo-12-Fe, respectively": the i-th value of the i-th material.
        const owners = respectively && v.values.length > 1 ? listedOwners(sentence, v, materials) : null;
        const parts = paired
          ? v.values.map((_, i) => ({
              value: at(v, i),
              canonical: [v.canonical[i]],
              temperature: paired.quantity.canonical[i],
              temperatureText: at(paired.quantity, i),
              span: [paired.quantity.canonical[i], paired.quantity.canonical[i]] as [number, number],
            }))
          : owners
            ? v.values.map((_, i) => ({ value: at(v, i), canonical: [v.canonical[i]], ...nearestTemperature(v, measuring) }))
            : [
                {
                  value: v.text,
                  canonical: v.canonical,
                  ...nearestTemperature(v, pairedSingle.has(v) ? [pairedSingle.get(v)!] : measuring, pairedSingle.has(v)),
                },
              ];
        for (const [i, part] of parts.entries()) {
          const owner = owners ? owners[i] : ownerOfValue;
          const key = `${e.paperId}|${owner}|${part.canonical.join(',')}|${part.temperature}`;
          if (seen.has(key)) continue;
          seen.add(key);
          rows.push({
            material: owner,
            value: part.value,
            canonical: part.canonical,
            canonicalUnit: v.canonicalUnit,
            paperId: e.paperId,
            paperTitle: titleOf(e),
            evidenceId: e.id,
            ...measuredAt(part, processing, others),
            sentenceMaterials: named,
            sentence,
          });
        }
      }
    }
  }
  return rows;
}

/**
 * A value a value question chose (`QuantityAnswer`), read as a stated value of `material`: with the temperature its
 * sentence measured it at and the sentence's processing temperatures. Null when no sentence of the item writes it.
 */
export function statedValueOf(e: Evidence, v: QuantityAnswer, material: string): StatedValue | null {
  for (const raw of sentencesOf(e)) {
    const sentence = joinSplitFormulas(joinBrokenWords(raw));
    const quantities = parseQuantities(sentence);
    const q = quantities.find((x) => x.text === v.text && x.dimension === v.dimension);
    if (!q) continue;
    const { measuring, processing } = splitTemperatures(v.dimension === 'temperature' ? [] : temperaturesOf(sentence, quantities));
    return {
      material,
      value: v.text,
      canonical: v.canonical,
      canonicalUnit: v.canonicalUnit,
      paperId: e.paperId,
      paperTitle: titleOf(e),
      evidenceId: e.id,
      ...measuredAt(nearestTemperature(q, measuring), processing),
      sentenceMaterials: materialKeysOf(sentence),
      sentence,
    };
  }
  return null;
}

/** A sentence's temperatures: those it measured at, and those the sample was made or treated at ("sintered at 600 °C"). */
function splitTemperatures(temperatures: StatedTemperature[]): { measuring: StatedTemperature[]; processing: StatedValue['processing'] } {
  return {
    measuring: temperatures.filter((t) => t.treatment === null),
    processing: temperatures.flatMap((t) => (t.treatment ? [{ text: `${t.treatment} at ${t.quantity.text}`, kelvin: t.quantity.canonical[0] }] : [])),
  };
}

/** What a value's measuring temperature and its sentence's processing and other quantities make of a row's conditions. */
function measuredAt(
  at: { temperature: number | null; temperatureText: string | null; span: [number, number] | null },
  processing: StatedValue['processing'],
  others: string[] = [],
): Pick<StatedValue, 'conditions' | 'measuredAtK' | 'measuredSpanK' | 'measuredAtText' | 'processing'> {
  return {
    conditions: [...(at.temperatureText ? [`at ${at.temperatureText}`] : []), ...processing.map((p) => p.text), ...others],
    measuredAtK: at.temperature,
    measuredSpanK: at.span,
    measuredAtText: at.temperatureText,
    processing,
  };
}

/** The canonical material keys a sentence names. */
const materialKeysOf = (sentence: string) => {
  const facets = textFacets(sentence);
  return [...materialTerms(facets.formulas, facets.materials)];
};

/** The measuring temperature nearest a value (after it within 60 characters, else before within 60; a paired one anywhere after). */
function nearestTemperature(
  v: Quantity,
  temperatures: StatedTemperature[],
  anyDistance = false,
): { temperature: number | null; temperatureText: string | null; span: [number, number] | null } {
  const after = temperatures.find((t) => t.quantity.start >= v.end && (anyDistance || t.quantity.start - v.end <= 60));
  const before = temperatures.filter((t) => t.quantity.end <= v.start && v.start - t.quantity.end <= 60).at(-1);
  const t = after ?? before;
  if (!t) return { temperature: null, temperatureText: null, span: null };
  const span: [number, number] = [Math.min(...t.quantity.canonical), Math.max(...t.quantity.canonical)];
  // A range or list of temperatures ("600–800 °C") is no single measuring temperature.
  return t.quantity.canonical.length === 1
    ? { temperature: t.quantity.canonical[0], temperatureText: t.quantity.text, span }
    : { temperature: null, temperatureText: t.quantity.text, span };
}
