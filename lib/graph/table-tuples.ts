import { findProperties } from '../structure/properties.ts';
import { parseQuantities } from '../structure/quantities.ts';
import { plausibleValue } from './plausible.ts';
import { rowSegments } from '../ingest/tables.ts';
import { draft, materialEntity, propertyEntity, type TupleDraft, valueEntity } from './tuples.ts';

/**
 * Tuples of a table row (its paragraph, as lib/ingest/tables.ts writes it: "Cathode: SSC; Sintering temperature:
 * 1000 °C; ASR: 0.094 Ω cm2; Peak power density: 911 mW cm−2 at 750 °C."). The row is about the material its first
 * material cell names; every other cell whose header is a known property and whose value is one quantity of that
 * property's dimension gives `has_property` (conditions from the header: `measured_at`), and a processing column
 * ("Sintering temperature", "Calcination time") gives `processed_at`. A cell that is not a quantity of its column's
 * property, a header the lexicon does not know, or a row naming no material gives nothing: a table's grid says
 * which value belongs to which material, so here precision comes from refusing what the grid does not settle.
 * Each tuple's span is its cell's, the provenance of a cited cell.
 */

/** Processing steps a column may name: its temperatures and times are what the material was made at. */
const PROCESSING = /\b(?:sinter\w*|calcin\w*|anneal\w*|heat[- ]treat\w*|firing|fired|dwell|synthesis|growth|deposition|reaction)\b/i;

/** The cells of a row's text that have a header (a cell without one says what it is of nothing): see `rowSegments`. */
export function rowCells(text: string): { header: string; value: string; conditions: string | null; start: number }[] {
  return rowSegments(text).flatMap((c) => (c.header === null ? [] : [{ header: c.header, value: c.value, conditions: c.conditions, start: c.valueStart }]));
}

/**
 * A cell that names a material: a lexicon name ("YSZ", "nickel foam"), or a formula with a digit or two capitals
 * ("MgB2", "LSCF"): a lone capital or a word is no material ("A", "Sample 3" is a label).
 */
function namesMaterial(value: string): boolean {
  if (parseQuantities(value).length) return false;
  const key = materialEntity(value).key;
  return key.startsWith('m:') || (key.startsWith('f:') && /\d|[A-Z].*[A-Z]/.test(value));
}

export function tableRowTuples(text: string, paragraphId: string): TupleDraft[] {
  const cells = rowCells(text);
  // What the row is about: the first cell that names a material (formula, lexicon name or abbreviation).
  const owner = cells.find((c) => namesMaterial(c.value));
  if (!owner) return [];
  const subject = materialEntity(owner.value);
  const out: TupleDraft[] = [];
  for (const c of cells) {
    if (c === owner) continue;
    const quantities = parseQuantities(c.value);
    // One quantity spanning the whole cell ("911 mW cm−2"), not a cell that merely contains numbers.
    if (quantities.length !== 1 || quantities[0].text.length < c.value.trim().length - 2) continue;
    const q = quantities[0];
    const source = { paragraphId, sentence: c.value, start: c.start, end: c.start + c.value.length };
    const processing = PROCESSING.test(c.header) && (q.dimension === 'temperature' || q.dimension === 'time');
    if (processing) {
      out.push(
        draft({
          subject,
          relation: 'processed_at',
          object: valueEntity(q.dimension, q.canonical, q.canonicalUnit, q.text),
          referenceRelation: 'during',
          referenceNode: c.header.replace(/\s*(?:temperature|time|duration)\s*$/i, '').trim() || null,
          value: Math.min(...q.canonical),
          valueMax: Math.max(...q.canonical),
          unit: q.canonicalUnit,
          ...source,
        }),
      );
      continue;
    }
    const property = findProperties(c.header).find((p) => p.dimension === q.dimension);
    if (!property) continue;
    const t = draft({
      subject,
      relation: 'has_property',
      object: propertyEntity(property.key, c.header),
      referenceRelation: c.conditions ? 'measured_at' : null,
      referenceNode: c.conditions,
      value: Math.min(...q.canonical),
      valueMax: Math.max(...q.canonical),
      unit: q.canonicalUnit,
      ...source,
    });
    if (plausibleValue(t)) out.push(t);
  }
  return out;
}
