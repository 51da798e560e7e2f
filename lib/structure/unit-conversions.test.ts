import { unit } from 'mathjs';
import { describe, expect, it } from 'vitest';
import table from './unit-conversions.json' with { type: 'json' };
import { computeConversions } from './unit-conversions.ts';
import { lookupUnit, parseQuantities, toCanonical } from './quantities.ts';

describe('unit-conversions.json', () => {
  it('holds what mathjs computes for every unit of the table (else: npm run units:table)', () => {
    expect(table).toEqual(computeConversions(unit));
    expect(Object.keys(table).length).toBeGreaterThan(40);
  });
  it('converts as mathjs does, offsets and prefixes included', () => {
    expect(toCanonical(800, lookupUnit('°C')!)).toBe(1073.15);
    expect(toCanonical(2, lookupUnit('days')!)).toBe(48);
    expect(toCanonical(0.5, lookupUnit('A cm^-2')!)).toBe(500);
    expect(parseQuantities('calcined at 550 °C for 5 h')[0].canonical).toEqual([823.15]);
  });
});
