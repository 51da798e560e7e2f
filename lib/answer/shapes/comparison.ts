import { propertyEntry } from '../../structure/properties.ts';
import { askedIfBeyond, askedPropertyWords, comparedSides, isSide, namesCompositeOf, type Side } from '../sides.ts';
import { type StatedValue, statedValueOf, statedValues } from '../stated-values.ts';
import { atTemperature, conditions, LESS_IS_BETTER, where } from './ranking.ts';
import type { Evidence } from '../../evidence/model.ts';
import type { RetrievalResult } from '../../pipelines/types.ts';
import { materialTerms } from '../../retrieval/facets.ts';
import { textFacets } from '../../structure/terms.ts';
import { bestSentenceOf, paperName, quote } from './text.ts';
import { type AnswerDraft, type AnswerShapeComposer, type DraftSentence, draft, frame } from './types.ts';

/**
 * A comparison that names its sides ("YSZ or GDC", "compare LiCoO2 and NMC", "BZY vs BZCY"): a row per side, each
 * with its values of the asked property under the asked conditions and their citations, or saying that the evidence
 * states none for it. Only when every side has a value is one named the higher (or lower): a winner is never drawn
 * from one side's evidence, nor from values measured at different temperatures. A composite naming a side ("Ni-YSZ")
 * is not that side.
 */

/**
 * A comparison that names no measured property ("Which is better for SOFC cathodes, LSM or LSCF?"): nothing says by
 * what one side is better, so none is named better; each side gets the passage closest to the question that names it
 * alone (not the other sides), or is said to have none. Null when no side has one and retrieval refused.
 */
function eachSide(result: RetrievalResult, sides: Side[], property: string | null = null): AnswerDraft | null {
  const names = (e: Evidence, side: Side) => {
    const f = textFacets(e.text);
    const terms = new Set(materialTerms(f.formulas, f.materials));
    return side.keys.some((k) => terms.has(k));
  };
  // A named property's passages first: those that name the side alone and the property ("yield").
  const aboutProperty = (e: Evidence) => !property || e.matched.properties.length > 0 || e.text.toLowerCase().includes(property.toLowerCase());
  const found = sides.map((side) => {
    const alone = result.evidence.filter((e) => e.kind === 'paragraph' && names(e, side) && !sides.some((o) => o !== side && names(e, o)));
    return { side, item: alone.find(aboutProperty) ?? alone[0] };
  });
  const missing = found.filter((f) => !f.item);
  if (missing.length === sides.length && result.abstention.abstain) return null;
  const list = sides.map((s) => s.name).join(' and ');
  const opening = property
    ? `The evidence states no ${property} of ${list} that can be set side by side, so neither is called higher`
    : `The question names no measured property to compare ${list} by, so neither is called better`;
  const sentences: DraftSentence[] = [
    frame(
      `${opening}; what the closest passages state of each${missing.length ? ` (none names ${missing.map((m) => m.side.name).join(' or ')} alone)` : ''}:`,
      [],
    ),
  ];
  for (const { side, item } of found)
    sentences.push(
      item
        ? draft(`${side.name}: ${quote(bestSentenceOf(item))} (${paperName(item)})`, [item.id])
        : frame(`${side.name}: no retrieved passage names it alone.`, []),
    );
  // What each side's passage says is half of what was asked at most: the verdict asked for ("which is better") is not given.
  return { shape: 'comparison', sentences, answered: (0.5 * (sides.length - missing.length)) / sides.length };
}

/** Two measuring temperatures within 15 K are one (the tolerance an asked temperature is read with). */
const SAME_TEMPERATURE_K = 15;
const apart = (a: [number, number], b: [number, number]) => a[0] > b[1] + SAME_TEMPERATURE_K || b[0] > a[1] + SAME_TEMPERATURE_K;

/** Whether some two of the values were measured at temperatures the evidence states and that differ. */
const measuredApart = (values: StatedValue[]) =>
  values.some((a, i) => values.slice(i + 1).some((b) => a.measuredSpanK && b.measuredSpanK && apart(a.measuredSpanK, b.measuredSpanK)));

/**
 * A single temperature every side has a value measured at: the one with the most such values, then the highest. What
 * is compared across sides when the question asks at no temperature and their best values were measured at different ones.
 */
function sharedTemperature(sides: StatedValue[][]): { kelvin: number; text: string } | null {
  let best: { kelvin: number; text: string; count: number } | null = null;
  for (const row of sides.flat()) {
    if (row.measuredAtK === null || !row.measuredAtText) continue;
    const counts = sides.map((values) => atTemperature(values, [row.measuredAtK!]).length);
    if (counts.some((n) => n === 0)) continue;
    const count = counts.reduce((a, b) => a + b, 0);
    if (!best || count > best.count || (count === best.count && row.measuredAtK > best.kelvin))
      best = { kelvin: row.measuredAtK, text: row.measuredAtText, count };
  }
  return best && { kelvin: best.kelvin, text: best.text };
}

/** P(right) below which the side's own value question's value is not taken as the side's. */
const SIDE_VALUE_CONFIDENCE = 0.5;

/**
 * The value the side's own value question chose ("What is the Tc of A?" reads the sentence that states it, however it
 * words the property), when it is of the asked dimension, likely right, and not from a sentence naming a composite of
 * the side; null otherwise.
 */
function sideOwnValue(result: RetrievalResult, side: Side, dimension: string): StatedValue | null {
  const v = result.sideValues?.find((s) => s.side === side.name)?.value;
  if (!v || v.dimension !== dimension || (v.confidence !== undefined && v.confidence < SIDE_VALUE_CONFIDENCE)) return null;
  const e = [...result.evidence, ...(result.extras?.graphEvidence ?? [])].find((x) => x.id === v.evidenceId);
  const row = e ? statedValueOf(e, v, side.name) : null;
  return row && !namesCompositeOf(row.sentence, side) ? row : null;
}

/** One value read twice: the same item, within 1 % (the evidence read by name and the side's own question). */
const sameValue = (a: Pick<StatedValue, 'evidenceId' | 'canonical'>, b: Pick<StatedValue, 'evidenceId' | 'canonical'>) =>
  a.evidenceId === b.evidenceId && Math.abs(Math.max(...a.canonical) - Math.max(...b.canonical)) <= Math.abs(Math.max(...b.canonical)) * 0.01;

/**
 * P(the side named higher is higher) when every side's value compared is the one its own value question chose, with
 * that choice's P(right): the verdict holds when every value is right, and is a coin's toss otherwise. Null when a
 * compared value is not such a value (read by name from the evidence only) or has no fitted confidence.
 */
function verdictChance(result: RetrievalResult, compared: { side: Side; lead: StatedValue }[]): number | null {
  let allRight = 1;
  for (const { side, lead } of compared) {
    const own = result.sideValues?.find((s) => s.side === side.name)?.value;
    if (!own || !sameValue(own, lead) || own.confidence === undefined) return null;
    allRight *= own.confidence;
  }
  return allRight + (1 - allRight) * 0.5;
}

const LOWER = /\b(?:lower|lowest|smaller|smallest|less|least|minimum|worse)\b/i;

export const comparisonShape: AnswerShapeComposer = {
  name: 'comparison',
  compose(result) {
    const { analysis } = result;
    const sides = comparedSides(analysis);
    if (!sides) return null;
    const property = analysis.properties.find((p) => propertyEntry(p)?.dimension);
    const entry = property ? propertyEntry(property) : undefined;
    // A property with no value to read ("yield", "degradation"): each side's closest passage about it, no verdict.
    if (!property || !entry?.dimension)
      return eachSide(
        result,
        sides,
        analysis.properties.length ? (askedPropertyWords(analysis) ?? propertyEntry(analysis.properties[0])?.label ?? null) : null,
      );
    const askedTemperature = analysis.quantities.find((q) => q.dimension === 'temperature' && entry.dimension !== 'temperature');
    const at = askedTemperature ? ` at ${askedTemperature.text}` : '';
    // The property as the question words it ("ionic conductivity", "peak power density").
    const label = askedPropertyWords(analysis)?.toLowerCase() ?? entry.label;
    const stated = statedValues([...result.evidence, ...(result.extras?.graphEvidence ?? [])], property, entry.dimension);
    // A side's values: those the evidence ties to it by name, and the value its own value question chose ("What is
    // the Tc of A?"), which is the side's value first: what the side is said to have when asked alone, not the
    // highest of what is stated of it (under pressure, over a range of doping).
    const ofSide = (side: Side) => {
      const rows = stated.filter(
        (r) =>
          (isSide(r.material, side) || (!r.material && r.sentenceMaterials.length > 0 && r.sentenceMaterials.every((k) => side.keys.includes(k)))) &&
          !namesCompositeOf(r.sentence, side),
      );
      const chosen = sideOwnValue(result, side, entry.dimension!);
      const own = chosen && (rows.find((r) => sameValue(r, chosen)) ?? chosen);
      return { all: own && !rows.includes(own) ? [own, ...rows] : rows, own };
    };
    const lower = LOWER.test(analysis.body) || (LESS_IS_BETTER.has(property) && /\bbetter|best\b/i.test(analysis.body));
    const best = (rows: StatedValue[]) => [...rows].sort((a, b) => (lower ? 1 : -1) * (Math.max(...a.canonical) - Math.max(...b.canonical)));
    const ownFirst = (list: StatedValue[], own: StatedValue | null) => (own && list.includes(own) ? [own, ...best(list.filter((r) => r !== own))] : best(list));
    let rows = sides.map((side) => {
      const { all, own } = ofSide(side);
      const matching = askedTemperature ? atTemperature(all, askedTemperature.canonical) : all;
      return {
        side,
        matching: ownFirst(matching, own),
        elsewhere: ownFirst(
          all.filter((r) => !matching.includes(r)),
          own,
        ),
      };
    });
    const missing = rows.filter((r) => !r.matching.length);
    // Nothing stated of any side: a refusal says why (with the closest evidence); else the comparison says so, rather
    // than let another shape rank what the evidence states of other materials (composites of a side, its neighbours).
    if (rows.every((r) => !r.matching.length && !r.elsewhere.length) && result.abstention.abstain) return null;
    // Asked at no temperature, the sides' best values measured at different ones compare the temperatures as much as
    // the materials (0.1 S cm−1 at 800 °C against 0.05 S cm−1 at 600 °C): they are compared at a temperature the
    // evidence states every side at, or none is named higher.
    let compareAt = at;
    let confounded = false;
    if (!askedTemperature && !missing.length && measuredApart(rows.map((r) => r.matching[0]))) {
      const shared = sharedTemperature(rows.map((r) => r.matching));
      if (shared) {
        compareAt = ` at ${shared.text} (the temperature the evidence states each at)`;
        rows = rows.map((r) => {
          const matching = atTemperature(r.matching, [shared.kelvin]);
          return { ...r, matching, elsewhere: best([...r.elsewhere, ...r.matching.filter((v) => !matching.includes(v))]) };
        });
      } else confounded = true;
    }
    const sentences: DraftSentence[] = [];
    const names = sides.map((s) => s.name).join(' and ');
    if (confounded) {
      const measured = rows.map((r) => `${r.side.name} at ${r.matching[0].measuredAtText ?? 'no stated temperature'}`).join(', ');
      sentences.push(
        frame(
          `The evidence states the ${label} of ${names} at different temperatures (${measured}) and never each at one temperature, so neither is named ${lower ? 'lower' : 'higher'}:`,
          [],
        ),
      );
    } else if (!missing.length) {
      const ranked = [...rows].sort((a, b) => (lower ? 1 : -1) * (Math.max(...a.matching[0].canonical) - Math.max(...b.matching[0].canonical)));
      const [lead, ...rest] = ranked;
      const word = `${lower ? 'lower' : 'higher'}`;
      // "Is A higher than B?" is answered yes or no first: whether the side it asks about (named first) leads.
      const yesNo = askedIfBeyond(analysis.body) ? (lead.side === sides[0] ? 'Yes: ' : 'No: ') : '';
      sentences.push(
        draft(
          `${yesNo}${lead.side.name} has the ${rows.length > 2 ? (lower ? 'lowest' : 'highest') : word} ${label}${compareAt}: ${lead.matching[0].value}, against ${rest.map((r) => `${r.matching[0].value} for ${r.side.name}`).join(' and ')}.`,
          [lead.matching[0].evidenceId, ...rest.map((r) => r.matching[0].evidenceId)],
        ),
      );
    } else
      sentences.push(
        frame(`The evidence does not let ${names} be compared${at}: it states no ${label}${at} for ${missing.map((r) => r.side.name).join(' or ')}.`, []),
      );
    for (const r of rows) {
      if (r.matching.length) {
        for (const v of r.matching.slice(0, 2)) sentences.push(draft(`${r.side.name}: ${v.value}${conditions(v)}${where(v)}.`, [v.evidenceId]));
      } else if (r.elsewhere.length) {
        const v = r.elsewhere[0];
        sentences.push(draft(`${r.side.name}: no value${at} in the evidence; it states ${v.value}${conditions(v)}${where(v)}.`, [v.evidenceId]));
      } else sentences.push(frame(`${r.side.name}: no ${label} value in the retrieved evidence.`, []));
    }
    // Values stated of every side at different temperatures answer half of what was asked: the verdict is not given.
    if (confounded) return { shape: 'comparison', sentences, table: rows.flatMap((r) => r.matching.slice(0, 2)), answered: 0.5 };
    // Each side without a value under the asked conditions is a part of the question left unanswered.
    const verdictConfidence = missing.length
      ? null
      : verdictChance(
          result,
          rows.map((r) => ({ side: r.side, lead: r.matching[0] })),
        );
    return {
      shape: 'comparison',
      sentences,
      table: rows.flatMap((r) => r.matching.slice(0, 2)),
      answered: (rows.length - missing.length) / rows.length,
      ...(verdictConfidence === null ? {} : { confidence: verdictConfidence }),
    };
  },
};
