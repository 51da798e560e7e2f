import { withArticle } from '../../common/format.ts';
import type { QuestionAnalysis } from '../../retrieval/question.ts';
import { propertyEntry } from '../../structure/properties.ts';
import { textFacets } from '../../structure/terms.ts';
import { isElementTerm, materialTerms } from '../../retrieval/facets.ts';
import { type StatedValue, statedValues } from '../stated-values.ts';
import { disagreementNote } from './table.ts';
import { type AnswerShapeComposer, type DraftSentence, draft, frame } from './types.ts';

/**
 * Comparisons and superlatives ("Which SOFC cathode gave the highest peak power density at 600 °C?", "Compare
 * the Tc of MgB2 films", "Which electrolyte has a lower area-specific resistance than …"): the values of the asked
 * property the evidence states, ranked under the asked conditions. A value counts at a temperature only when its
 * sentence says it was measured there; a sintering or calcining temperature is not an operating one. The first
 * line names the leader with its value, conditions and paper; each next candidate follows, each cited to its
 * sentence; left-out values and disagreements are said.
 */

// A word of comparison outside the property's own name ("maximum power density" is a property, not a superlative).
const COMPARING =
  /\b(?:highest|largest|greatest|biggest|maximum|max|best|top|record|lowest|smallest|least|minimum|min|fewest|worst|compare[ds]?|comparison|versus|vs\.?|rank(?:ed|ing)?|higher|lower|larger|smaller|better|worse|outperform\w*|exceed\w*)\b/gi;
// A value the question compares candidates against ("higher than 500 mW cm-2", "Tc above 30 K").
const COMPARED_WITH = /\b(?:than|exceed\w*|above|below|over|under|beyond|at least|at most|up to|compared? (?:to|with)|versus|vs\.?)\b/i;
const ASCENDING = /^(?:lowest|smallest|least|minimum|min|fewest|lower|smaller)$/i;
/** Properties where less is better: "best" and "better" rank them from the lowest. */
export const LESS_IS_BETTER = new Set(['area-resistance', 'overpotential', 'activation-energy', 'degradation', 'tafel-slope']);

/** The comparing words of the question outside the spans that name its properties. */
function comparingWords(analysis: QuestionAnalysis): string[] {
  const words: string[] = [];
  for (const m of analysis.body.matchAll(COMPARING)) {
    const inside = analysis.propertySpans.some((s) => m.index >= s.start && m.index < s.end);
    if (!inside) words.push(m[0]);
  }
  return words;
}

/** Rows measured at the asked temperature: within 15 K of it, or inside an asked range. */
export function atTemperature(rows: StatedValue[], asked: number[]): StatedValue[] {
  return rows.filter((r) => near(r.measuredAtK, asked));
}

/** A temperature in K within 15 K of the asked one, or inside an asked range. */
const near = (kelvin: number | null, asked: number[]) => kelvin !== null && kelvin >= Math.min(...asked) - 15 && kelvin <= Math.max(...asked) + 15;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const cell = (r: StatedValue) => r.material ?? 'an unnamed sample';
export const where = (r: StatedValue) => (r.paperTitle ? ` (“${r.paperTitle}”)` : '');
export const conditions = (r: StatedValue) => (r.conditions.length ? ` ${r.conditions.join(', ')}` : '');

export const rankingShape: AnswerShapeComposer = {
  name: 'ranking',
  compose(result) {
    const { analysis } = result;
    const words = comparingWords(analysis);
    if (!words.length) return null;
    const property = analysis.properties.find((p) => propertyEntry(p)?.dimension);
    const entry = property ? propertyEntry(property) : undefined;
    if (!property || !entry?.dimension) return null;
    // "Find the study giving 4200 Å as the maximum photoemission intensity wavelength": a value of the property the
    // question states itself, compared with nothing, asks who reports it; "maximum" belongs to the property's name.
    if (analysis.quantities.some((q) => q.dimension === entry.dimension) && !COMPARED_WITH.test(analysis.body)) return null;
    // Values the question itself states are what it compares against, not conditions ("higher than 500 mW cm-2").
    const askedTemperature = analysis.quantities.find((q) => q.dimension === 'temperature' && entry.dimension !== 'temperature');
    // Candidates come from the ranked evidence and the graph's tuples (each cited to its sentence): a comparison needs
    // more papers than the few passages a pipeline ranks first.
    const stated = statedValues([...result.evidence, ...(result.extras?.graphEvidence ?? [])], property, entry.dimension);
    // "Compare the Tc of MgB2 films": only the values stated of the materials the question names, not of what it
    // compares against ("lower … than La0.8Sr0.2MnO3") nor of single elements, which name an atmosphere or a dopant
    // ("in hydrogen", "iron contents").
    const than = /\bthan\b(.*)$/i.exec(analysis.body)?.[1] ?? '';
    const thanFacets = textFacets(than);
    const reference = new Set(than ? materialTerms(thanFacets.formulas, thanFacets.materials) : []);
    const asked = new Set(analysis.materials.filter((m) => !reference.has(m) && !isElementTerm(m)));
    // Names the facets do not know ("the PBMCo anodes") are matched as written.
    const names = analysis.entityWords.filter((w) => !than.includes(w) && w.length > 2);
    const about = (r: StatedValue) => r.sentenceMaterials.some((m) => asked.has(m)) || names.some((w) => r.sentence.includes(w));
    const rows = asked.size || names.length ? stated.filter(about) : stated;
    if (!rows.length) return null;

    const ascending = words.some((w) => ASCENDING.test(w)) || (LESS_IS_BETTER.has(property) && words.some((w) => /^(?:best|better)$/i.test(w)));
    const order = (a: StatedValue, b: StatedValue) => (ascending ? 1 : -1) * (Math.max(...a.canonical) - Math.max(...b.canonical));
    const matching = askedTemperature ? atTemperature(rows, askedTemperature.canonical) : rows;
    const ranked = [...matching].sort(order);
    const superlative = ascending ? 'lowest' : 'highest';
    const at = askedTemperature ? ` at ${askedTemperature.text}` : '';
    const sentences: DraftSentence[] = [];

    if (ranked.length) {
      const [leader, ...rest] = ranked;
      const of = `the ${superlative} ${entry.label}${at} of the ${plural(ranked.length, 'value')} the evidence states`;
      sentences.push(
        draft(
          leader.material
            ? `${leader.material} has ${of}: ${leader.value}${conditions(leader)}${where(leader)}.`
            : `${capitalise(of)} is ${leader.value}${conditions(leader)}${where(leader)}, for a sample its sentence does not name.`,
          [leader.evidenceId],
        ),
      );
      for (const r of rest.slice(0, 4)) sentences.push(draft(`Next: ${cell(r)}, ${r.value}${conditions(r)}${where(r)}.`, [r.evidenceId]));
    } else {
      // Nothing measured at the asked temperature: say so, then what is stated at others, nearest first.
      const near = [...rows]
        .filter((r) => r.measuredAtK !== null)
        .sort((a, b) => Math.abs((a.measuredAtK ?? 0) - mid(askedTemperature!.canonical)) - Math.abs((b.measuredAtK ?? 0) - mid(askedTemperature!.canonical)));
      if (!near.length) return null;
      sentences.push(frame(`No retrieved passage states ${withArticle(entry.label)} measured${at}; the nearest temperatures stated are:`, []));
      for (const r of near.slice(0, 4)) sentences.push(draft(`${cell(r)}, ${r.value}${conditions(r)}${where(r)}.`, [r.evidenceId]));
    }

    // Values whose only temperature near the asked one is where the sample was made, not where it ran.
    if (askedTemperature) {
      const sintered = rows.filter((r) => !matching.includes(r) && r.processing.some((p) => near(p.kelvin, askedTemperature.canonical)));
      if (sintered.length)
        sentences.push(
          draft(
            `Left out: ${plural(sintered.length, 'value')} where ${askedTemperature.text} is a processing temperature (${sintered[0].processing[0].text}), not the one the cell ran at.`,
            [...new Set(sintered.map((r) => r.evidenceId))],
          ),
        );
    }
    // Different materials differ by design; two papers that measured the same material and disagree are worth saying.
    const disagreement = sameMaterialDisagreement(ranked.length ? ranked : rows);
    if (disagreement) sentences.push(draft(disagreement.text, disagreement.cited));
    sentences.push(frame('Only values stated in the retrieved passages are ranked; a paper that was not retrieved may report more.', []));
    return { shape: 'ranking', sentences, table: ranked.length ? ranked : rows.sort(order), disagreement: disagreement?.text ?? null };
  },
};

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const mid = (values: number[]) => (Math.min(...values) + Math.max(...values)) / 2;

/** The first material two papers report clearly different values for under comparable conditions (see disagreementNote). */
function sameMaterialDisagreement(rows: StatedValue[]): { text: string; cited: string[] } | null {
  const byMaterial = new Map<string, StatedValue[]>();
  for (const r of rows) {
    if (!r.material) continue;
    const key = r.material.toLowerCase().replace(/\s*\(.*\)$/, '');
    byMaterial.set(key, [...(byMaterial.get(key) ?? []), r]);
  }
  for (const group of byMaterial.values()) {
    const text = disagreementNote(group);
    if (text) return { text, cited: [...new Set(group.filter((r) => text.includes(r.value)).map((r) => r.evidenceId))] };
  }
  return null;
}
