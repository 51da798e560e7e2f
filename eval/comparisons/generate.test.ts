import { describe, expect, it } from 'vitest';
import { COMPARISON_TEMPLATES, comparisonCases } from './generate.ts';

const q = (id: string, question: string, value: string) => ({ id, question, value });

describe('comparison cases from value questions', () => {
  it('pair questions asking one property of different materials at one temperature, with clearly different gold values', () => {
    const cases = comparisonCases([
      q('a', 'In “A paper on diborides”, what Tc is reported for MgB2?', '39 K'),
      q('b', 'What is the Tc of Nb3Sn?', '18 K'),
      // Too close to Nb3Sn's to be ordered, and a bound is no value to order by.
      q('c', 'What is the Tc of NbTi?', '17 K'),
      q('d', 'What is the Tc of CaC6?', 'below 12 K'),
      // Another property, another temperature: other groups.
      q('e', 'What is the ionic conductivity of YSZ at 800 °C?', '0.05 S cm−1'),
      q('f', 'What is the ionic conductivity of GDC at 800 °C?', '0.15 S cm−1'),
      q('g', 'What is the ionic conductivity of SDC at 600 °C?', '0.01 S cm−1'),
      // Two gold values of one material disagree: it has no one value to compare; a processing time is no property.
      q('h', 'What is the Tc of YBa2Cu3O7?', '92 K'),
      q('i', 'What is the Tc of YBa2Cu3O7?', '60 K'),
      q('j', 'How long was LSCF calcined?', '2 h'),
      q('k', 'How long was LSM calcined?', '10 h'),
    ]);
    const pairs = cases
      .map((c) =>
        c.sides
          .map((s) => s.name)
          .sort()
          .join(' / '),
      )
      .sort();
    expect(pairs).toEqual(['GDC / YSZ', 'MgB2 / Nb3Sn', 'MgB2 / NbTi']);
    for (const c of cases) {
      expect(COMPARISON_TEMPLATES).toContain(c.template);
      for (const s of c.sides) expect(c.question).toContain(s.name);
      // The title that named the source's paper is not carried into the comparison.
      expect(c.question).not.toContain('diborides');
    }
    const conductivity = cases.find((c) => c.property === 'conductivity')!;
    expect(conductivity.question).toMatch(/ionic conductivity/);
    expect(conductivity.question).toMatch(/at 800 °C/);
    // The same questions give the same cases, in the same order.
    expect(comparisonCases([q('a', 'What is the Tc of MgB2?', '39 K'), q('b', 'What is the Tc of Nb3Sn?', '18 K')]).map((c) => c.id)).toEqual(['a+b']);
  });
});
