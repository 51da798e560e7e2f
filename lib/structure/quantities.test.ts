import { describe, expect, it } from 'vitest';
import { parseCondition } from './paper-filters.ts';
import { hostileQuestions } from '../../scripts/test-support/hostile-questions.ts';
import { normaliseUnitText, parseQuantities } from './quantities.ts';

const one = (text: string) => {
  const qs = parseQuantities(text);
  expect(qs, text).toHaveLength(1);
  return qs[0];
};

describe('normaliseUnitText', () => {
  it('folds the many spellings of the same unit', () => {
    for (const s of ['mA cm⁻²', 'mA cm−2', 'mA cm-2', 'mA cm–2', 'mA  cm^-2']) expect(normaliseUnitText(s), s).toBe('mA cm^-2');
    for (const s of ['°C', 'oC', 'º C', '˚C', '° C']) expect(normaliseUnitText(s), s).toBe('°C');
    expect(normaliseUnitText('wt %')).toBe('wt%');
    expect(normaliseUnitText('μm')).toBe('µm');
  });
});

describe('parseQuantities', () => {
  it('reads thermoelectric and gas-evolution units, and a negative Seebeck coefficient', () => {
    const read = (t: string) => parseQuantities(t).map((q) => [q.dimension, q.canonical[0], q.canonicalUnit]);
    expect(read('S = −187 µV K−1 at 300 K')).toEqual([
      ['seebeck', -187, 'uV/K'],
      ['temperature', 300, 'K'],
    ]);
    expect(read('κ = 0.62 W m−1 K−1')).toEqual([['thermal-conductivity', 0.62, 'W/(m K)']]);
    expect(read('H2 evolution of 386 µmol h−1 g−1')).toEqual([['production-rate', 386, 'umol/(h g)']]);
  });
  it('converts temperatures to kelvin, with offsets and in ranges', () => {
    const q = one('calcined at 800–1000 °C in air');
    expect(q).toMatchObject({ kind: 'range', values: [800, 1000], unit: '°C', dimension: 'temperature', canonical: [1073.15, 1273.15], canonicalUnit: 'K' });
    expect(q.text).toBe('800–1000 °C');
    expect(one('annealed at 1073 K').canonical).toEqual([1073]);
    expect(one('dried at 60 oC overnight').canonical).toEqual([333.15]);
    expect(one('heated to 160 degC and kept').canonical).toEqual([433.15]);
    expect(one('heated from 300 to 600 °C').kind).toBe('range');
  });
  it('keeps offsets that point at the original text', () => {
    const text = 'The peak power density was 560 mW cm−2 at 550 °C.';
    const qs = parseQuantities(text);
    expect(qs.map((q) => text.slice(q.start, q.end))).toEqual(['560 mW cm−2', '550 °C']);
    expect(qs[0]).toMatchObject({ dimension: 'power-density', canonical: [560], canonicalUnit: 'mW/cm^2' });
  });
  it('reads an en dash between a unit and its exponent as a minus, not as a range ("55 mW cm–2 and 600 °C")', () => {
    const text = 'an anode at 55 mW cm–2 and 600 °C, and 0.5 S cm–1 between 600–800 °C';
    const qs = parseQuantities(text);
    expect(qs.map((q) => [text.slice(q.start, q.end), q.dimension, q.canonical])).toEqual([
      ['55 mW cm–2', 'power-density', [55]],
      ['600 °C', 'temperature', [873.15]],
      ['0.5 S cm–1', 'conductivity', [0.5]],
      ['600–800 °C', 'temperature', [873.15, 1073.15]],
    ]);
  });
  it('reads parts per million as a fraction in percent, band positions as wavenumbers, mobilities and specific areas', () => {
    const at = (t: string) => parseQuantities(t).map((q) => [q.dimension, q.canonical, q.canonicalUnit]);
    expect(at('an oxygen content of 11 to 12 ppm')).toEqual([['fraction', [0.0011, 0.0012], '%']]);
    // "964 cm−1" is a band position, not 9.64 m.
    expect(at('the band at 964 cm−1')).toEqual([['wavenumber', [964], 'cm^-1']]);
    expect(at('a mobility of 3.4 cm2/Vs')).toEqual([['mobility', [3.4], 'cm^2/(V s)']]);
    expect(at('a mobility of 12 cm2 V−1 s−1')).toEqual([['mobility', [12], 'cm^2/(V s)']]);
    expect(at('a BET area of 164 m2 g−1')).toEqual([['specific-area', [164], 'm^2/g']]);
    expect(at('a 5 cm tube')).toEqual([['length', [50000000], 'nm']]);
  });

  it('reads superscript and per-area units, and converts between prefixes', () => {
    expect(one('at 10 mA cm⁻²')).toMatchObject({ dimension: 'current-density', canonical: [10] });
    expect(one('0.45 W cm−2 at 0.7 V'.split(' at ')[0])).toMatchObject({ dimension: 'power-density', canonical: [450] });
    expect(one('a conductivity of 0.01 S cm⁻¹')).toMatchObject({ dimension: 'conductivity', canonical: [0.01] });
    expect(one('delivered 128 mAh g−1')).toMatchObject({ dimension: 'specific-capacity', canonical: [128] });
    expect(one('at 5 A g-1')).toMatchObject({ dimension: 'specific-current', canonical: [5] });
    expect(one('an ASR of 0.12 Ω cm2')).toMatchObject({ dimension: 'area-resistance', canonical: [0.12] });
  });
  it('handles ±, lists, comparators and scientific notation', () => {
    expect(one('particles of 5.2 ± 0.3 nm')).toMatchObject({ values: [5.2], plusMinus: 0.3, canonicalPlusMinus: 0.3 });
    expect(one('grown for 1, 2, 3, 4, and 5 h')).toMatchObject({ kind: 'list', values: [1, 2, 3, 4, 5], canonical: [1, 2, 3, 4, 5] });
    expect(one('stable ≥ 1073 K')).toMatchObject({ comparator: '>=', canonical: [1073] });
    expect(one('σ = 1.2 × 10⁻³ S cm⁻¹')).toMatchObject({ values: [0.0012], dimension: 'conductivity' });
    // PDF text loses the superscript: "× 10−4" is still an exponent, not a range from 10 to 4.
    expect(one('a conductivity of 9.74 × 10−4 S cm−1')).toMatchObject({ values: [0.000974], kind: 'single', text: '9.74 × 10−4 S cm−1' });
    expect(one('2.5 x 10-2 S cm-1')).toMatchObject({ values: [0.025], kind: 'single' });
    expect(one('a ΔT of 20 ± 2 °C').canonicalPlusMinus).toBe(2);
  });
  it('keeps the reference electrode of potentials and their sign', () => {
    expect(one('reached 10 mA cm−2 at 1.48 V vs RHE'.slice(19))).toMatchObject({ dimension: 'potential', canonical: [1.48], reference: 'RHE' });
    expect(one('an overpotential of 230 mV')).toMatchObject({ canonical: [0.23], canonicalUnit: 'V' });
    expect(one('held at -0.2 V vs. Ag/AgCl')).toMatchObject({ values: [-0.2], reference: 'Ag/AgCl' });
  });
  it('covers pressure, length, concentration, fractions, energy, time', () => {
    expect(one('at 3 GPa')).toMatchObject({ dimension: 'pressure', canonical: [3e9] });
    expect(one('up to 10 kbar')).toMatchObject({ dimension: 'pressure', canonical: [1e9] });
    expect(one('under 760 Torr')).toMatchObject({ dimension: 'pressure' });
    expect(one('a spacing of 12 Å')).toMatchObject({ dimension: 'length', canonical: [1.2] });
    expect(one('in 1.0 M NH4F')).toMatchObject({ dimension: 'concentration', canonical: [1] });
    expect(one('with 5 wt % Pt')).toMatchObject({ dimension: 'fraction', unit: 'wt%', canonical: [5] });
    expect(one('2 mol% Y2O3')).toMatchObject({ dimension: 'fraction', unit: 'mol%' });
    expect(one('a band gap of 2.98 eV')).toMatchObject({ dimension: 'energy', canonical: [2.98] });
    expect(one('for 30 min')).toMatchObject({ dimension: 'time', canonical: [0.5] });
    expect(one('heated at 5 °C min−1')).toMatchObject({ dimension: 'rate', canonical: [5] });
  });
  it('does not read formulas or labels as quantities', () => {
    for (const t of ['BaZr0.8Y0.2O3−δ', 'K2CO3 and Ni3S2/NF-1', 'MOF 3 crystals', 'La0.6Sr0.4CoO3', 'Fig. 2a']) expect(parseQuantities(t), t).toEqual([]);
  });
});

describe('parseCondition', () => {
  it('turns a condition in any unit into the same canonical interval', () => {
    expect(parseCondition('800–1000 °C')).toEqual({ dimension: 'temperature', min: 1072.65, max: 1273.65, unit: 'K', written: '800–1000 °C' });
    expect(parseCondition('1073–1273 K')).toEqual({ dimension: 'temperature', min: 1072.5, max: 1273.5, unit: 'K', written: '1073–1273 K' });
    expect(parseCondition('≥ 1073 K')).toEqual({ dimension: 'temperature', min: 1072.5, max: Number.POSITIVE_INFINITY, unit: 'K', written: '≥ 1073 K' });
    expect(parseCondition('10–20 mA cm⁻²')).toEqual({ dimension: 'current-density', min: 10, max: 20, unit: 'mA/cm^2', written: '10–20 mA cm⁻²' });
    expect(parseCondition('no number here')).toBeNull();
  });
});

describe('unit spellings found in questions and papers', () => {
  const first = (s: string) => parseQuantities(s)[0];
  it.each([
    ['0.262 Ω·cm2', 'area-resistance', [0.262]],
    ['262 mΩ cm²', 'area-resistance', [0.262]],
    ['423 mWcm−2', 'power-density', [423]],
    ['900 mW/cm−2', 'power-density', [900]],
    ['40 μbar', 'pressure', [4]],
    ['16.2 kbar', 'pressure', [1.62e9]],
    ['380-μm', 'length', [380000]],
    ['3600 Å', 'length', [360]],
    ['at −0.3 A cm⁻²', 'current-density', [-300]],
  ])('%s', (text, dimension, canonical) => {
    expect(first(text)).toMatchObject({ dimension, canonical });
  });
});

describe('parseQuantities as typed and as printed', () => {
  it('reads an ASCII plus-minus as one value with its uncertainty', () => {
    expect(one('dried at 110 +- 5 degC')).toMatchObject({ values: [110], plusMinus: 5, dimension: 'temperature' });
    expect(one('at 25 +/- 2 degC')).toMatchObject({ values: [25], plusMinus: 2 });
  });
  it('keeps the sign of a negative value in its text', () => {
    expect(one('cells degraded at −300 mA/cm2')).toMatchObject({ text: '−300 mA/cm2', canonical: [-300] });
  });
  it('does not read an XPS core level ("O 1s") as a time', () => {
    expect(parseQuantities('the O 1s peak at 530.7 eV').map((q) => q.dimension)).toEqual(['energy']);
    expect(one('stirred for 1s')).toMatchObject({ dimension: 'time' });
  });

  it('does not read an exponent as a number: "10^-6 M" is no 6 M, "g−1 h−1" no 1 h, but "NiO-40 wt%" is 40 wt%', () => {
    expect(parseQuantities('in CHCl3 (ca. 10^-6 M) solution')).toEqual([]);
    expect(parseQuantities('a CO evolution rate of 37.13 μmol g−1 h−1').filter((q) => q.dimension === 'time')).toEqual([]);
    expect(parseQuantities('an anode of NiO-40 wt% YSZ').map((q) => q.canonical)).toEqual([[40]]);
    expect(parseQuantities('1.2 A cm-2 at 0.7 V').map((q) => q.dimension)).toEqual(['current-density', 'potential']);
  });
});

describe('parseQuantities on hostile text', () => {
  it('ends on every kind of hostile question (a number list without a unit once took 2^n steps), finding what is there', () => {
    for (const { kind, text } of hostileQuestions()) expect(Array.isArray(parseQuantities(text)), kind).toBe(true);
    expect(parseQuantities('1,'.repeat(995))).toEqual([]);
    expect(parseQuantities(`${'1,'.repeat(995)} and then 5 h`).map((q) => q.text)).toEqual(['5 h']);
    expect(parseQuantities('1 S/cm at 1 °C '.repeat(3)).map((q) => q.dimension)).toEqual([
      'conductivity',
      'temperature',
      'conductivity',
      'temperature',
      'conductivity',
      'temperature',
    ]);
  });
  it('reads a list of up to twelve values with one unit, and the last twelve of a longer one', () => {
    expect(one('grown for 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 12 h')).toMatchObject({ kind: 'list', values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] });
    const long = Array.from({ length: 15 }, (_, i) => i + 1);
    expect(one(`grown for ${long.join(', ')} h`)).toMatchObject({ kind: 'list', values: long.slice(3) });
  });
  it('finds a quantity after a long run of whitespace and a comparator after a space', () => {
    expect(one(`measured at${' '.repeat(5000)}800 °C`)).toMatchObject({ canonical: [1073.15] });
    expect(one('stable ≥ 1073 K')).toMatchObject({ comparator: '>=' });
  });
});
