import { formatNumber } from '../../common/format.ts';
import { propertyEntry } from '../../structure/properties.ts';
import { parseQuantities } from '../../structure/quantities.ts';
import { statedValues } from '../stated-values.ts';
import type { ValueRow } from '../types.ts';
import { type AnswerShapeComposer, draft } from './types.ts';

/**
 * The temperature of a row's conditions in K (the condition papers most often differ by), if any: the one it was
 * measured at ("at 600 °C") before any other (a sintering temperature).
 */
const temperatureOf = (r: ValueRow) => {
  const ordered = [...r.conditions.filter((c) => c.startsWith('at ')), ...r.conditions.filter((c) => !c.startsWith('at '))];
  return (
    ordered.flatMap((c) =>
      parseQuantities(c)
        .filter((q) => q.dimension === 'temperature')
        .map((q) => q.canonical[0]),
    )[0] ?? null
  );
};

/**
 * Papers that report clearly different values (more than a factor of two apart) under comparable conditions
 * (temperatures within 25 K, or neither stating one).
 */
export function disagreementNote(rows: ValueRow[]): string | null {
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length; j++) {
      const [a, b] = [rows[i], rows[j]];
      if (a.paperId === b.paperId) continue;
      const [ta, tb] = [temperatureOf(a), temperatureOf(b)];
      const comparable = (ta === null && tb === null) || (ta !== null && tb !== null && Math.abs(ta - tb) <= 25);
      const [va, vb] = [Math.max(...a.canonical), Math.max(...b.canonical)];
      if (comparable && va > 0 && vb > 0 && Math.max(va, vb) / Math.min(va, vb) > 2) {
        const at = ta !== null ? ` at about ${formatNumber(ta, 3)} K` : '';
        return `The papers disagree${at}: ${a.value} in “${a.paperTitle ?? 'one paper'}” against ${b.value} in “${b.paperTitle ?? 'another'}”.`;
      }
    }
  }
  return null;
}

// A question about a property across papers: "what values / range / typical …", or the property in the plural
// ("conductivities", "power densities"). "What Tc is reported for X?" asks for one value, not a table.
const ACROSS =
  /\b(?:values|ranges?|compare[ds]?|comparison|across|typical|various|different|literature)\b|\b\w+(?:ities|sities|ivities|ances|ages|ures|cies)\b(?=[^?]*\b(?:reported|found|measured|achieved|obtained)\b)/i;

/**
 * A property across papers ("What conductivities are reported for BZCY electrolytes?"): a table of the values the
 * evidence states with their conditions, largest first, and a note when papers clearly disagree.
 */
export const tableShape: AnswerShapeComposer = {
  name: 'table',
  compose(result) {
    const { analysis } = result;
    if (analysis.intent === 'which-paper' || analysis.quantities.length > 0 || !ACROSS.test(analysis.body)) return null;
    const property = analysis.properties.find((p) => propertyEntry(p)?.dimension);
    const dimension = property ? propertyEntry(property)?.dimension : null;
    if (!property || !dimension) return null;
    const rows = statedValues(result.evidence, property, dimension).sort((a, b) => Math.max(...b.canonical) - Math.max(...a.canonical));
    if (new Set(rows.map((r) => r.paperId)).size < 2) return null;
    const label = propertyEntry(property)?.label ?? property;
    const cited = [...new Set(rows.map((r) => r.evidenceId))];
    const papers = new Set(rows.map((r) => r.paperId)).size;
    const lo = rows[rows.length - 1];
    const hi = rows[0];
    const sentences = [draft(`${papers} papers report ${label} values from ${lo.value} to ${hi.value}; the table lists each with its conditions.`, cited)];
    const disagreement = disagreementNote(rows);
    if (disagreement) {
      const pair = rows.filter((r) => disagreement.includes(r.value)).map((r) => r.evidenceId);
      sentences.push(draft(disagreement, [...new Set(pair)]));
    }
    return { shape: 'table', sentences, table: rows, disagreement };
  },
};
