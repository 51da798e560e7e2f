import { formatNumber } from '../../common/format.ts';
import { findProperties, propertyEntry } from '../../structure/properties.ts';
import { fromCanonical, lookupUnit, parseQuantities } from '../../structure/quantities.ts';
import { type Evidence, provenanceOf } from '../../evidence/model.ts';
import type { RetrievalResult } from '../../pipelines/types.ts';
import { GENERIC_PROPERTIES } from '../../retrieval/question.ts';
import { quantityFacet, quantityMatch } from '../../retrieval/facets.ts';
import { questionCues, VALUE_EVIDENCE } from '../../retrieval/value.ts';
import { splitSentences } from '../../structure/sentences.ts';
import { rowSegments } from '../../ingest/tables.ts';
import { termSpans } from '../../structure/terms.ts';
import { bare, paperName, quote, sentenceAt } from './text.ts';
import { type AnswerShapeComposer, draft, frame } from './types.ts';

const ATMOSPHERE =
  /\b(?:in|under)\s+((?:humidified |dry |flowing |pure |static )?(?:air|argon|Ar|N2|nitrogen|H2|hydrogen|O2|oxygen|vacuum|CO2|methane|CH4|ammonia|NH3)(?:\/[A-Za-z0-9]+)?)\b/;

/** The value's text where it stands alone, not inside a longer number ("2 h" is not in "12 h"). */
function standalone(text: string): RegExp {
  return new RegExp(`(?<![\\d.,])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}

/** The unit a question asks its value in ("… in mW/cm2?", "What is the Tc in K of …"), when it names one of the asked dimension. */
export function askedUnit(question: string, dimension: string): string | null {
  for (const m of question.matchAll(/\b(?:in|as|using)\s+([^\s?,;]+(?:\s*[/·]\s*[^\s?,;]+)?)/gi)) {
    // "in mW cm-2 of …": the unit may be followed by more words; try it whole, then its first word.
    for (const unit of [m[1], m[1].split(/\s+/)[0]]) {
      const spec = lookupUnit(unit);
      if (spec && spec.dimension === dimension) return unit;
    }
  }
  return null;
}

/**
 * A value question: the value with its unit and the conditions its sentence states (temperature, pressure,
 * atmosphere …), converted to the unit the question asked in, cited to the sentence that states it.
 */
export const valueShape: AnswerShapeComposer = {
  name: 'value',
  compose(result) {
    const v = result.value;
    if (!v || result.analysis.intent !== 'value') return null;
    const e = result.evidence.find((x) => x.id === v.evidenceId);
    if (!e) return null;
    // A value from a table is read with its column's header (its conditions: "… at 750 °C"), not the whole row.
    const cell = provenanceOf(e, 'cell')[0];
    // Its sentence is where the value stands (its span): the first match of its text may sit inside another number
    // ("2 h" inside "for 12 h").
    const sentence = cell ? cell.column : sentenceAt(e, v.span?.start ?? Math.max(0, e.text.search(standalone(v.text))));
    const parsed = parseQuantities(sentence);
    const paired = pairedAtTemperature(result, parsed, v.text);
    const conditions = paired ? [paired.temperature] : conditionsOf(result, parsed, v);
    const atmosphere = ATMOSPHERE.exec(sentence)?.[1];
    if (atmosphere) conditions.push(`in ${atmosphere}`);
    // The named property of the value's dimension before a generic one: "At what temperature does MgB2 become
    // superconducting?" names "temperature" first and asks for the transition temperature. None of its dimension
    // ("how many hours calcined" names a temperature; "annealing duration … for oxidation resistance" a resistance
    // first): the generic property of the value's dimension ("duration"), else none, rather than the wrong one.
    const named = result.analysis.properties.map((k) => propertyEntry(k) ?? { key: k, label: k, dimension: null });
    const ofDimension = named.filter((p) => p.dimension === v.dimension);
    const generic = [...GENERIC_PROPERTIES].map((k) => propertyEntry(k)).find((p) => p?.dimension === v.dimension);
    const property = (ofDimension.find((p) => !GENERIC_PROPERTIES.has(p.key)) ?? ofDimension[0] ?? generic)?.label;
    // What the value is of: the first material word that is not the property's own acronym ("ASR of …", "OCV of …").
    const of = result.analysis.entityWords.find((w) => !findProperties(w).length);
    const subject = [property, of ? `of ${of}` : ''].filter(Boolean).join(' ');
    const unit = askedUnit(result.question, v.dimension);
    const spec = unit ? lookupUnit(unit) : null;
    const canonical = paired ? [paired.canonical] : v.canonical;
    const converted = spec ? ` (${canonical.map((x) => formatNumber(fromCanonical(x, spec))).join('–')} ${unit})` : '';
    const lead = `${subject ? `${subject[0].toUpperCase()}${subject.slice(1)}: ` : 'The value: '}${paired?.value ?? v.text}${converted}${conditions.length ? `, at ${conditions.join(', ')}` : ''}.`;
    const stated = cell
      ? `${cell.table ?? 'A table'} of ${paperName(e)}, in the row ${quote(bare(rowSegments(e.text)[0].text))}, column ${quote(cell.column)}, gives ${e.text.slice(cell.start, cell.end)} (cell ${cell.address})`
      : `${paperName(e)} states: ${quote(bare(sentence))}`;
    const sentences = [draft(lead, [e.id]), draft(`${stated}.`, [e.id])];
    const related = relatedStatement(result, sentence);
    if (related)
      sentences.push(draft(`${related.item.id === e.id ? 'It' : paperName(related.item)} also states: ${quote(bare(related.text))}.`, [related.item.id]));
    // A value measured at another temperature than the one asked answers half the question, and says so.
    const otherTemperature = temperatureMismatch(result, sentence, v.dimension);
    if (otherTemperature) sentences.push(frame(otherTemperature.text, []));
    return {
      shape: 'value',
      sentences,
      ...(otherTemperature ? { answered: 0.5, unmet: otherTemperature.asked } : {}),
      ...(v.confidence !== undefined ? { confidence: v.confidence } : {}),
    };
  },
};

/**
 * The conditions the value's sentence states (quantities of other dimensions); of a dimension the question states a
 * condition in, only the asked one when the sentence states it ("5.0 K at 2 GPa and 7.6 K at 6 GPa" asked at 6 GPa
 * is 7.6 K at 6 GPa, not at 2 GPa and 6 GPa).
 */
function conditionsOf(result: RetrievalResult, parsed: ReturnType<typeof parseQuantities>, v: { dimension: string; text: string }): string[] {
  const others = parsed.filter((q) => q.dimension !== v.dimension && !q.text.includes(v.text));
  const asked = (q: (typeof parsed)[number]) => result.analysis.quantities.some((a) => quantityMatch([quantityFacet(q)], a) > 0);
  return others.filter((q) => asked(q) || !others.some((o) => o.dimension === q.dimension && asked(o))).map((q) => q.text);
}

/**
 * "0.01, 0.025, and 0.054 S cm–1 at 500, 600, and 700 °C" asked at 600 °C: a list of values written against a list of
 * temperatures of the same length is read pairwise, and the value at the asked temperature is the answer (with that
 * temperature); null when the value is no list, no such temperature list is there, or none of it is the one asked.
 */
function pairedAtTemperature(
  result: RetrievalResult,
  parsed: ReturnType<typeof parseQuantities>,
  valueText: string,
): { value: string; canonical: number; temperature: string } | null {
  const list = parsed.find((q) => q.kind === 'list' && q.text === valueText);
  const temperatures = parsed.find((q) => q.kind === 'list' && q.dimension === 'temperature' && q !== list);
  const asked = result.analysis.quantities.filter((q) => q.dimension === 'temperature');
  if (!list || !temperatures || list.dimension === 'temperature' || temperatures.values.length !== list.values.length || !asked.length) return null;
  const at = temperatures.canonical.findIndex((t) =>
    asked.some((a) => Math.min(...a.canonical) - SAME_TEMPERATURE_K <= t && t <= Math.max(...a.canonical) + SAME_TEMPERATURE_K),
  );
  if (at < 0) return null;
  const unitOf = (q: (typeof parsed)[number]) => (q.unit === '%' ? q.unit : ` ${q.unit}`);
  return {
    value: `${formatNumber(list.values[at])}${unitOf(list)}`,
    canonical: list.canonical[at],
    temperature: `${formatNumber(temperatures.values[at])}${unitOf(temperatures)}`,
  };
}

/** Kelvin within which a stated temperature is the one asked. */
const SAME_TEMPERATURE_K = 5;

/**
 * "… at 750 °C?" answered by a value its sentence states at 800 °C: what to say (the value is at 800 °C, not at the
 * 750 °C asked) and the temperature asked, or null when the sentence states the asked temperature, none, or the question asks none.
 */
function temperatureMismatch(result: RetrievalResult, sentence: string, dimension: string): { text: string; asked: string } | null {
  if (dimension === 'temperature') return null;
  const asked = result.analysis.quantities.filter((q) => q.dimension === 'temperature');
  const stated = parseQuantities(sentence).filter((q) => q.dimension === 'temperature');
  if (!asked.length || !stated.length) return null;
  const near = (a: readonly number[], b: readonly number[]) =>
    Math.min(...a) - SAME_TEMPERATURE_K <= Math.max(...b) && Math.min(...b) - SAME_TEMPERATURE_K <= Math.max(...a);
  if (asked.some((a) => stated.some((s) => near(a.canonical, s.canonical)))) return null;
  const at = asked.map((q) => q.text).join(', ');
  return { text: `That value is stated at ${stated.map((q) => q.text).join(', ')}, not at the ${at} asked.`, asked: at };
}

// A sentence saying how a property changes ("T c decreases under hydrostatic pressure at dTc/dp = −1.11 K/GPa").
const CHANGE =
  /\b(?:increas|decreas|rise|rises|rising|rose|drop|fall|falls|fell|shift|suppress|enhanc|reduc|lower|raise|raising|depend)\w*|\bd\s?[A-Za-z]{1,3}\s?(?:c\s?)?\/\s?d[A-Za-z]/i;

/**
 * How the value changes with what else the question names, when a sentence says so: "What is the Tc of MgB2
 * under pressure?" is answered by 39 K, and by the sentence saying how Tc falls under pressure. Among the other
 * sentences of the top evidence, one that states a change and a word of the question besides its material,
 * preferring the one that states more of the question's words, a quantity, the asked property and the material.
 */
function relatedStatement(result: RetrievalResult, valueSentence: string): { item: Evidence; text: string } | null {
  const materials = new Set(result.analysis.entityWords);
  const cues = [...questionCues(result.analysis)].filter((c) => !materials.has(c));
  if (cues.length === 0) return null;
  let best: { item: Evidence; text: string; score: number } | null = null;
  for (const item of result.evidence.slice(0, VALUE_EVIDENCE)) {
    for (const s of splitSentences(item.text)) {
      const text = s.text.trim();
      if (text === valueSentence.trim() || text.length < 30 || !CHANGE.test(text)) continue;
      const terms = new Set(termSpans(text).map((t) => t.term));
      const stated = cues.filter((c) => terms.has(c)).length;
      if (stated === 0) continue;
      const property = findProperties(text).some((p) => result.analysis.properties.includes(p.key));
      // A sentence that quantifies the change says most.
      const score = stated + (property ? 1 : 0) + (parseQuantities(text).length ? 2 : 0) + ([...materials].some((m) => terms.has(m)) ? 1 : 0);
      if (!best || score > best.score) best = { item, text, score };
    }
  }
  return best;
}
