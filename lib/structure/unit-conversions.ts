import { buildUnitTable, canonicalUnits } from './unit-table.ts';

/**
 * Every conversion the unit table needs, as `a·x + b` into its dimension's canonical unit (the offset b only for
 * temperatures), keyed `"<mathjs unit>><canonical unit>"`. The coefficients are mathjs's: `npm run units:table`
 * asks mathjs for each and writes unit-conversions.json, and unit-conversions.test.ts fails when the table and
 * mathjs disagree or a unit of the table is missing. The app reads the JSON instead of loading mathjs, whose full
 * instance costs about 0.5 s and 30 MB of heap in every thread that parses a quantity (the server's, each
 * retrieval worker's, every CLI) to give some fifty pairs of numbers.
 */
export type ConversionTable = Record<string, [a: number, b: number]>;

/** The key of a unit's conversion to its canonical unit (mathjs spells micro "u"). */
export const conversionKey = (math: string, target: string) => `${math.replace(/µ/g, 'u')}>${target}`;

/**
 * The table as mathjs computes it, given mathjs's `unit(value, name)`: a unit mathjs cannot convert is left out
 * (a value in it is then not reported as a quantity, as before).
 */
export function computeConversions(unit: (value: number, name: string) => { toNumber(target: string): number }): ConversionTable {
  const table: ConversionTable = {};
  for (const spec of buildUnitTable().values()) {
    if (spec.math === null) continue;
    const target = canonicalUnits[spec.dimension];
    const key = conversionKey(spec.math, target);
    if (key in table) continue;
    try {
      const at = (x: number) => unit(x, spec.math!.replace(/µ/g, 'u')).toNumber(target);
      const b = at(0);
      table[key] = [at(1) - b, b];
    } catch {
      // not convertible: left out
    }
  }
  return Object.fromEntries(Object.entries(table).sort(([x], [y]) => (x < y ? -1 : 1)));
}
