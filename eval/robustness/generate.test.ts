import { describe, expect, it } from 'vitest';
import { parseQuantities } from '../../lib/structure/quantities.ts';
import { generateCases, withTitleKept } from './generate.ts';
import { TRANSFORMS, transformNamed } from './registry.ts';
import { sameQuantities } from './transforms/checks.ts';
import { rewriteQuantity, significantDigits } from './text.ts';
import type { RobustnessContext } from './types.ts';

const ctx: RobustnessContext = { acronyms: new Map([['SOFC', 'solid oxide fuel cell']]) };
const apply = (name: string, q: string) => transformNamed(name)!.apply(q, ctx);

describe('robustness transforms that keep the meaning', () => {
  const q = 'Which paper reports a power density of 560 mW cm−2 for a micro-SOFC at 550 °C?';

  it('unit-scale writes the value in another scale of its unit, same canonical value, exponents untouched', () => {
    expect(apply('unit-scale', q)).toBe('Which paper reports a power density of 0.56 W cm−2 for a micro-SOFC at 550 °C?');
    expect(apply('unit-scale', 'Which paper reports 0.1 S/cm for YSZ?')).toBe('Which paper reports 100 mS/cm for YSZ?');
    expect(apply('unit-scale', 'a thickness of 3.3 nm')).toBe('a thickness of 33 Å');
  });

  it('temperature-scale converts °C and K and keeps the canonical value; no Kelvin below 0 °C', () => {
    const out = apply('temperature-scale', q)!;
    expect(out).toContain('823 K');
    expect(sameQuantities(out, q)).toBe(true);
    expect(apply('temperature-scale', 'Tc of 39 K for MgB2')).toBeNull();
    expect(apply('temperature-scale', 'at 1073 K')).toBe('at 800 °C');
  });

  it('approximate qualifies the value asked about, not the condition', () => {
    const out = apply('approximate', q)!;
    expect(out).toMatch(/(?:about|around|roughly|~|approximately|close to) ?560 mW/);
    expect(out).toContain('at 550 °C');
  });

  it('rounded keeps two significant digits and leaves two-digit values alone', () => {
    expect(apply('rounded', 'a PPD of 864 mW/cm2 at 550 °C')).toBe('a PPD of 860 mW/cm2 at 550 °C');
    expect(apply('rounded', 'a Tc of 13.2 K for La2C3')).toBe('a Tc of 13 K for La2C3');
    expect(apply('rounded', q)).toBeNull();
  });

  it('name transforms: hydrates, x/y stoichiometry, δ, dopant phrases, element names, acronyms', () => {
    expect(apply('hydrate-notation', 'from NiSO4·6H2O and urea')).toMatch(/NiSO4(?:\*|\.| · | |-|•)6H2O/);
    expect(apply('hydrate-notation', 'Na0.3CoO2 1.3H2O at 4.3 K')).toMatch(/^Na0\.3CoO2(?:·|\*|\.| · |-|•)1\.3H2O at 4\.3 K$/);
    expect(apply('hydrate-notation', 'CO2 and H2O to methanol')).toBeNull();
    expect(apply('nonstoichiometry-letter', 'a Ce0.8Sm0.2O2−δ electrolyte')).toMatch(/^a Ce0\.8Sm0\.2O2(?:-d|\+d|-α|−delta|±δ) electrolyte$/);
    expect(apply('descriptor-suffix', 'a Pd-impregnated LSM cathode at 750 °C')).toMatch(/^a Pd-impregnated LSM-(?:based|containing|type) cathode at 750 °C$/);
    expect(apply('stoichiometry-letters', 'a Ce0.8Sm0.2O2−δ electrolyte')).toBe('a Ce1−xSmxO2−δ electrolyte');
    expect(apply('oxygen-nonstoichiometry', 'a Ce0.8Sm0.2O2−δ electrolyte')).toBe('a Ce0.8Sm0.2O2 electrolyte');
    expect(apply('oxygen-nonstoichiometry', 'a La0.8Sr0.2MnO3 cathode')).toBe('a La0.8Sr0.2MnO3−δ cathode');
    expect(apply('dopant-phrase', 'a Ce0.9Gd0.1O2−δ electrolyte')).toMatch(/a Gd-doped (?:ceria|CeO2) electrolyte/);
    expect(apply('dopant-phrase', 'a La0.8Sr0.2MnO3 cathode')).toBe('a Sr-doped LaMnO3 cathode');
    expect(apply('element-name', 'NiFe LDH grown on Ni foam')).toBe('NiFe LDH grown on nickel foam');
    expect(apply('element-name', 'a gadolinium-doped ceria')).toBe('a Gd-doped ceria');
    expect(apply('acronym', 'the SOFC anode')).toBe('the solid oxide fuel cell anode');
    expect(apply('acronym', 'a solid oxide fuel cell anode')).toBe('a SOFC anode');
  });

  it('formulas spaced out by PDF extraction are not taken apart', () => {
    expect(apply('dopant-phrase', 'what Tc is reported for Hg2 (Ba0.5Sr0.5 ) 2 YCu2O8−δ?')).toBeNull();
  });

  it('surface transforms: case and spacing (units and formulas kept), one typo, a phrase moved', () => {
    expect(apply('case-spacing', q)).toBe('which paper reports a power density of 560mW cm−2 for a micro-SOFC at 550°C');
    expect(apply('typo', 'Which paper reports superconductivity in MgB2?')).toBe('Which paper reports superconudctivity in MgB2?');
    expect(apply('word-order', q)).toBe('At 550 °C, which paper reports a power density of 560 mW cm−2 for a micro-SOFC?');
    expect(apply('word-order', 'At 550 °C, which paper reports 560 mW cm−2?')).toBe('Which paper reports 560 mW cm−2 at 550 °C?');
  });

  it('every meaning-keeping value transform keeps the canonical values (within rounding and approximation)', () => {
    for (const name of ['unit-scale', 'temperature-scale']) {
      const out = apply(name, q);
      expect(out, name).not.toBeNull();
      expect(sameQuantities(out!, q)).toBe(true);
    }
  });
});

describe('robustness transforms that change the meaning', () => {
  const q = 'Which paper reports a resistance of 0.15 Ω·cm2 for a Ce0.8Sm0.2O2−δ electrolyte at 650 °C?';

  it('value-moved moves the value asked about beyond any tolerance, and not the condition', () => {
    const out = apply('value-moved', q)!;
    const [moved, condition] = parseQuantities(out);
    const ratio = moved.canonical[0] / 0.15;
    expect(ratio > 2 || ratio < 0.5).toBe(true);
    expect(condition.text).toBe('650 °C');
  });

  it('condition-changed moves the temperature by 200 degrees, or swaps the atmosphere', () => {
    expect(apply('condition-changed', q)).toContain('at 450 °C');
    expect(apply('condition-changed', 'a Tc of 39 K for MgB2 at 2 GPa')).toBe('a Tc of 39 K for MgB2 at 8 GPa');
    expect(apply('condition-changed', 'Which paper reports the conductivity of BZY in air?')).toBe(
      'Which paper reports the conductivity of BZY in pure hydrogen?',
    );
    // A question whose only value is what it asks has no condition to change.
    expect(apply('condition-changed', 'Which paper reports a Tc of 39 K for MgB2?')).toBeNull();
  });

  it('dopant-swapped and host-swapped name another material', () => {
    expect(apply('dopant-swapped', q)).toContain('Ce0.8Gd0.2O2−δ');
    expect(apply('dopant-swapped', 'a gadolinium-doped ceria anode')).toBe('a samarium-doped ceria anode');
    expect(apply('host-swapped', q)).toContain('Zr0.8Sm0.2O2−δ');
    expect(apply('host-swapped', 'the Tc of MgB2 and of MgB2 films')).toBe('the Tc of ZnB2 and of ZnB2 films');
  });
});

describe('generateCases', () => {
  it('rewrites every question with each transform that applies, changes only answerable ones, never a quoted title', () => {
    const cases = generateCases(
      [
        { id: 'a', question: 'In “Superconductivity of magnesium diboride thin films”, what Tc is reported for MgB2 at 12 GPa?', answerable: true },
        { id: 'b', question: 'Which paper reports 1900 mW/cm2 for a micro-SOFC at 550 °C?', answerable: false },
      ],
      ctx,
    );
    for (const c of cases.filter((x) => x.baseId === 'a')) expect(c.question, c.transform).toContain('“Superconductivity of magnesium diboride thin films”');
    expect(cases.filter((c) => c.baseId === 'b' && c.kind === 'change')).toEqual([]);
    expect(new Set(cases.map((c) => c.transform))).toEqual(
      new Set(['unit-scale', 'approximate', 'case-spacing', 'typo', 'word-order', 'host-swapped', 'value-moved', 'temperature-scale']),
    );
    expect(cases.every((c) => TRANSFORMS.some((t) => t.name === c.transform && t.kind === c.kind))).toBe(true);
  });

  it('drops a rewrite that lost the quoted title', () => {
    expect(withTitleKept('In “A long enough title”, what?', () => 'what?')).toBeNull();
    expect(withTitleKept('In “A long enough title”, what?', (m) => m.toUpperCase())).toBe('IN “A long enough title”, WHAT?');
  });

  it('numbers keep their precision and their exponent', () => {
    expect(significantDigits('560')).toBe(2);
    expect(significantDigits('0.056')).toBe(2);
    expect(significantDigits('9.74 × 10−4')).toBe(3);
    const [q] = parseQuantities('9.74 × 10−4 S cm−1');
    expect(rewriteQuantity(q, (_w, v) => String(v * 1000), 'mS cm−1')).toBe('0.974 mS cm−1');
  });
});
