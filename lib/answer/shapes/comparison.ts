import { propertyEntry } from '../../structure/properties.ts';
import { askedPropertyWords, comparedSides, isSide, namesCompositeOf, type Side } from '../sides.ts';
import { type StatedValue, statedValues } from '../stated-values.ts';
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
 * from one side's evidence. A composite naming a side ("Ni-YSZ") is not that side.
 */

/**
 * A comparison that names no measured property ("Which is better for SOFC cathodes, LSM or LSCF?"): nothing says by
 * what one side is better, so none is named better; each side gets the passage closest to the question that names it
 * alone (not the other sides), or is said to have none. Null when no side has one and retrieval refused.
 */
function eachSide(result: RetrievalResult, sides: Side[]): AnswerDraft | null {
  const names = (e: Evidence, side: Side) => {
    const f = textFacets(e.text);
    const terms = new Set(materialTerms(f.formulas, f.materials));
    return side.keys.some((k) => terms.has(k));
  };
  const found = sides.map((side) => ({
    side,
    item: result.evidence.find((e) => e.kind === 'paragraph' && names(e, side) && !sides.some((o) => o !== side && names(e, o))),
  }));
  const missing = found.filter((f) => !f.item);
  if (missing.length === sides.length && result.abstention.abstain) return null;
  const list = sides.map((s) => s.name).join(' and ');
  const sentences: DraftSentence[] = [
    frame(
      `The question names no measured property to compare ${list} by, so neither is called better; what the closest passages state of each${missing.length ? ` (none names ${missing.map((m) => m.side.name).join(' or ')} alone)` : ''}:`,
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

const LOWER = /\b(?:lower|lowest|smaller|smallest|less|least|minimum|worse)\b/i;

export const comparisonShape: AnswerShapeComposer = {
  name: 'comparison',
  compose(result) {
    const { analysis } = result;
    const sides = comparedSides(analysis);
    if (!sides) return null;
    const property = analysis.properties.find((p) => propertyEntry(p)?.dimension);
    const entry = property ? propertyEntry(property) : undefined;
    if (!property || !entry?.dimension) return analysis.properties.length ? null : eachSide(result, sides);
    const askedTemperature = analysis.quantities.find((q) => q.dimension === 'temperature' && entry.dimension !== 'temperature');
    const at = askedTemperature ? ` at ${askedTemperature.text}` : '';
    // The property as the question words it ("ionic conductivity", "peak power density").
    const label = askedPropertyWords(analysis)?.toLowerCase() ?? entry.label;
    const stated = statedValues([...result.evidence, ...(result.extras?.graphEvidence ?? [])], property, entry.dimension);
    const ofSide = (side: Side) =>
      stated.filter(
        (r) =>
          (isSide(r.material, side) || (!r.material && r.sentenceMaterials.length > 0 && r.sentenceMaterials.every((k) => side.keys.includes(k)))) &&
          !namesCompositeOf(r.sentence, side),
      );
    const lower = LOWER.test(analysis.body) || (LESS_IS_BETTER.has(property) && /\bbetter|best\b/i.test(analysis.body));
    const best = (rows: StatedValue[]) => [...rows].sort((a, b) => (lower ? 1 : -1) * (Math.max(...a.canonical) - Math.max(...b.canonical)));
    const rows = sides.map((side) => {
      const all = ofSide(side);
      const matching = askedTemperature ? atTemperature(all, askedTemperature.canonical) : all;
      return { side, matching: best(matching), elsewhere: best(all.filter((r) => !matching.includes(r))) };
    });
    const missing = rows.filter((r) => !r.matching.length);
    // Nothing stated of any side: a refusal says why (with the closest evidence); else the comparison says so, rather
    // than let another shape rank what the evidence states of other materials (composites of a side, its neighbours).
    if (rows.every((r) => !r.matching.length && !r.elsewhere.length) && result.abstention.abstain) return null;
    const sentences: DraftSentence[] = [];
    if (!missing.length) {
      const ranked = [...rows].sort((a, b) => (lower ? 1 : -1) * (Math.max(...a.matching[0].canonical) - Math.max(...b.matching[0].canonical)));
      const [lead, ...rest] = ranked;
      const word = `${lower ? 'lower' : 'higher'}`;
      sentences.push(
        draft(
          `${lead.side.name} has the ${rows.length > 2 ? (lower ? 'lowest' : 'highest') : word} ${label}${at}: ${lead.matching[0].value}, against ${rest.map((r) => `${r.matching[0].value} for ${r.side.name}`).join(' and ')}.`,
          [lead.matching[0].evidenceId, ...rest.map((r) => r.matching[0].evidenceId)],
        ),
      );
    } else
      sentences.push(
        frame(
          `The evidence does not let ${sides.map((s) => s.name).join(' and ')} be compared${at}: it states no ${label}${at} for ${missing.map((r) => r.side.name).join(' or ')}.`,
          [],
        ),
      );
    for (const r of rows) {
      if (r.matching.length) {
        for (const v of r.matching.slice(0, 2)) sentences.push(draft(`${r.side.name}: ${v.value}${conditions(v)}${where(v)}.`, [v.evidenceId]));
      } else if (r.elsewhere.length) {
        const v = r.elsewhere[0];
        sentences.push(draft(`${r.side.name}: no value${at} in the evidence; it states ${v.value}${conditions(v)}${where(v)}.`, [v.evidenceId]));
      } else sentences.push(frame(`${r.side.name}: no ${label} value in the retrieved evidence.`, []));
    }
    // Each side without a value under the asked conditions is a part of the question left unanswered.
    return { shape: 'comparison', sentences, table: rows.flatMap((r) => r.matching.slice(0, 2)), answered: (rows.length - missing.length) / rows.length };
  },
};
