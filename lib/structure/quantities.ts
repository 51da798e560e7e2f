import { buildUnitTable, canonicalUnits, type Dimension, type UnitSpec } from './unit-table.ts';
import conversionsJson from './unit-conversions.json' with { type: 'json' };
import { type ConversionTable, conversionKey } from './unit-conversions.ts';

// JSON arrays are typed number[]; each entry is the [a, b] pair unit-conversions.ts writes.
const conversions = conversionsJson as Record<string, number[]> as ConversionTable;

export { canonicalUnits, type Dimension, type UnitSpec };

/**
 * Numbers with units as materials papers write them ("800–1000 °C", "5.2 ± 0.3 nm", "10 mA cm⁻²",
 * "1.48 V vs RHE", "1, 2 and 3 h", "≥ 1073 K"), parsed into values in one canonical unit per dimension so that
 * "calcined at 800 °C" and "1073 K" compare equal. Unit arithmetic and conversion are mathjs's (its coefficients,
 * kept in unit-conversions.json: see unit-conversions.ts); this module only turns the typography of papers into
 * units mathjs understands.
 */

export interface Quantity {
  /** The text as written, with its offsets in the source string. */
  text: string;
  start: number;
  end: number;
  /** Values as written (one, a range's two ends, or a list). */
  values: number[];
  kind: 'single' | 'range' | 'list';
  plusMinus: number | null;
  /** ">=", "<=", ">", "<", "~" when the text qualifies the value. */
  comparator: string | null;
  unit: string;
  dimension: Dimension;
  canonicalUnit: string;
  /** `values` converted to `canonicalUnit` (for a fraction: percent). */
  canonical: number[];
  canonicalPlusMinus: number | null;
  /** Reference electrode for potentials ("RHE", "SCE", "Ag/AgCl" …). */
  reference: string | null;
}

const unitTable = buildUnitTable();
// The same keys without spaces, for units written run together ("mWcm−2", "Ω·cm2").
const compactKey = (k: string) => k.replace(/[\s·]+/g, '');
const compactUnitTable = new Map([...unitTable].map(([k, v]) => [compactKey(k), v]));

const superscripts: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁻': '-',
  '⁺': '+',
};

/**
 * Typography of units → one spelling: Unicode minus and dashes, superscript exponents ("cm⁻²", "cm−2",
 * "cm-2" → "cm^-2"), degree signs ("oC", "º C", "˚C" → "°C"), "μ" (Greek mu) → "µ", spaces folded.
 */
export function normaliseUnitText(u: string): string {
  let s = u
    .replace(/[\u2212\u2013\u2012\u2010\u2011]/g, '-')
    .replace(/μ/g, 'µ')
    .replace(/Ω/g, 'Ω');
  s = s.replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+/g, (m) => `^${[...m].map((c) => superscripts[c]).join('')}`);
  s = s
    .replace(/(?:^|(?<=\s))[o˚º°]\s?C\b/g, '°C')
    .replace(/[˚º]\s?C\b/g, '°C')
    .replace(/°\s+C/g, '°C')
    .replace(/°\s+F/g, '°F');
  s = s.replace(/([A-Za-zΩµ])\s*\^?\s*(-\s?[1-3])(?![\d.])/g, '$1^$2').replace(/\^-\s/g, '^-');
  s = s.replace(/([A-Za-z])\^?([23])(?![\d.])\b/g, (m, a, b) => (/[a-z]/i.test(a) && /(cm|m|mm|nm)$/.test(m.slice(0, -1).replace('^', '')) ? `${a}^${b}` : m));
  s = s
    .replace(/\s*\.\s*%/g, '.%')
    .replace(/\s+%/g, '%')
    .replace(/\s+/g, ' ')
    .trim();
  s = s.replace(/\b(wt|at|mol|vol)\s+%/g, '$1%');
  return s;
}

/** A unit spelled any common way → its table entry (trying "A cm^-2" and "A/cm^2" forms alike). */
export function lookupUnit(surface: string): UnitSpec | null {
  const n = normaliseUnitText(surface);
  return unitTable.get(n) ?? unitTable.get(n.replace(/\s*\/\s*/g, '/')) ?? compactUnitTable.get(compactKey(n)) ?? null;
}

/** Converts a value in its dimension's canonical unit back to the surface unit `spec` (the inverse of toCanonical). */
export function fromCanonical(value: number, spec: UnitSpec): number {
  if (spec.math === null) return round(value / (spec.percent ?? 1));
  const b = toCanonical(0, spec);
  const a = toCanonical(1, spec) - b;
  return (value - b) / a;
}

/** Converts `value` in the surface unit to the canonical unit of its dimension. */
export function toCanonical(value: number, spec: UnitSpec, delta = false): number {
  if (spec.math === null) return spec.percent === undefined ? value : round(value * spec.percent); // fractions in percent
  const target = canonicalUnits[spec.dimension];
  if (delta && spec.dimension === 'temperature') {
    // A difference or ± in °C is the same size in K (no offset).
    return spec.math === 'degF' ? value * (5 / 9) : value;
  }
  // Every unit conversion is affine (a·x + b, the offset only for temperatures), with a and b as mathjs gives them.
  const affine = conversions[conversionKey(spec.math, target)];
  if (!affine) throw new Error(`no conversion from ${spec.math} to ${target}`);
  return round(affine[0] * value + affine[1]);
}

function round(x: number): number {
  return Number.parseFloat(x.toPrecision(12));
}

// Number: 1,000 or 1.5 or 1.2e-3 or 1.2 × 10^-3, or 1.2 × 10−3 as PDF text loses the superscript (the exponent is
// then signed, so "× 10−3" is never read as a range from 10 to 3).
const NUM = String.raw`\d+(?:[.,]\d+)?`;
const unitKeys = [...unitTable.keys()].sort((a, b) => b.length - a.length);
/** A table key as a tolerant pattern: optional "^" and spaces, any degree sign, "wt %" and "wt.%" alike. */
const escapeRe = (key: string) =>
  key
    .replace(/[.*+?${}()|[\]\\/]/g, '\\$&')
    .replace(/\^/g, '\\^?')
    .replace(/\\\^\?-/g, '\\^?\\s?-')
    .replace(/°/g, '(?:°|˚|º|o)\\s?')
    .replace(/%/g, '\\s?%')
    .replace(/ /g, '[\\s·]?');
const UNIT_RE = unitKeys.map(escapeRe).join('|');
/**
 * Values one quantity may list ("1, 2, 3 and 4 h"). With it the pattern is linear in the text's length: the
 * numbers are matched atomically (a lookahead's capture, read back), so "1,1,1,…" cannot be split into numbers
 * and separators in 2^n ways when no unit follows (a question of "1," × 995 held a server for minutes), and a
 * chain of separated numbers without a unit ("1-1-1-…") is read from each start for at most this many values,
 * not to its end. A longer list yields its last values.
 */
const MAX_LISTED = 12;
// Nor does a match without a comparator start inside a run of whitespace: the run's first position reaches every
// number it could, and trying each later one made a long run quadratic.
const QUANTITY_RE = new RegExp(
  String.raw`(?:(?<cmp>[≥≤><~≈]|>=|<=)|(?<!\s))\s*(?<![A-Za-z0-9.]|\^[-+]?|(?:^|[\s·/])[A-Za-zµ]{1,3}[-+](?=[1-4](?![\d.])))(?=(?<nums>${NUM}(?:\s*(?:[-–~]|to|and|or|,|, and)\s*${NUM}){0,${MAX_LISTED - 1}}))\k<nums>(?:\s*[×x]\s*10\^?(?<exp>(?<=\^)[-+]?\d+|[-+]\d+))?(?:\s*(?:±|\+\s?-|\+\/-)\s*(?<pm>${NUM}))?(?:\s*|-)(?<unit>${UNIT_RE})(?![A-Za-z0-9µ])(?:\s+vs\.?\s+(?<ref>RHE|SCE|NHE|SHE|Ag\/AgCl|Hg\/HgO|Li\/Li\+|Li\+\/Li))?`,
  'g',
);

// A number right after a letter is part of a name ("CH4 and 2.02 W cm−2", "H2-30 ppm"): the lookbehind before `nums`.
// An en dash is a range's ("600–800 °C") except between a unit and its exponent ("mW cm–2", "S cm–1").
const EXPONENT_DASH = /(?<=[A-Za-z])\u2013(?=[1-3](?![\d.]))/g;

/** Finds every quantity in a text. Offsets index the original text. */
export function parseQuantities(text: string): Quantity[] {
  // Same-length normalisation keeps offsets valid: Unicode minus/dashes → "-", superscripts handled in units.
  const prepared = text
    .replace(/[\u2212\u2012\u2010\u2011]/g, '-')
    .replace(EXPONENT_DASH, '-')
    .replace(/μ/g, 'µ');
  const normalised = normaliseForMatching(prepared);
  const out: Quantity[] = [];
  for (const m of normalised.text.matchAll(QUANTITY_RE)) {
    const g = m.groups!;
    const spec = lookupUnit(g.unit);
    if (!spec) continue;

    const start = normalised.map(m.index!);
    const end = normalised.map(m.index! + m[0].length);
    const raw = text.slice(start, end);
    const scale = g.exp ? 10 ** Number(g.exp) : 1;
    const nums = [...g.nums.matchAll(new RegExp(NUM, 'g'))].map((x) => round(parseNumber(x[0]) * scale));
    const isRange = nums.length === 2 && /\d\s*(?:[-–~]|to)\s*\d/.test(g.nums);
    const kind: Quantity['kind'] = nums.length === 1 ? 'single' : isRange ? 'range' : 'list';
    // A leading minus belongs to the number ("-0.2 V"), not a range.
    const negative =
      /-\s*$/.test(normalised.text.slice(Math.max(0, m.index! - 2), m.index!)) &&
      !g.cmp &&
      /^(potential|temperature|energy|current-density|current|seebeck)$/.test(spec.dimension);
    const values = negative && kind === 'single' ? [-nums[0]] : nums;
    if (g.unit === 'C' && values.some((v) => Math.abs(v) < 100)) continue;
    // "O 1s", "C 1s": an XPS core level, not a second.
    const at = m.index! + m[0].length - m[0].trimStart().length;
    if (g.unit === 's' && !/\s/.test(m[0].trim()) && /(?:^|[\s(])[A-Z][a-z]?\s$/.test(normalised.text.slice(Math.max(0, at - 4), at))) continue;
    const pm = g.pm ? parseNumber(g.pm) : null;
    let canonical: number[];
    try {
      canonical = values.map((v) => toCanonical(v, spec));
    } catch {
      continue; // a unit mathjs cannot convert is not reported as a quantity rather than guessed
    }
    const cmp = g.cmp ? (({ '≥': '>=', '≤': '<=', '≈': '~' } as Record<string, string>)[g.cmp] ?? g.cmp) : null;
    // The text of a negative value keeps its sign ("−300 mA/cm2"), so that quoting it states the value.
    const from = negative && kind === 'single' ? text.slice(0, start).trimEnd().length - 1 : start + (raw.length - raw.trimStart().length);
    out.push({
      text: text.slice(from, end).trim(),
      start: from,
      end,
      values,
      kind,
      plusMinus: pm,
      comparator: cmp,
      unit: normaliseUnitText(g.unit),
      dimension: spec.dimension,
      canonicalUnit: canonicalUnits[spec.dimension],
      canonical,
      canonicalPlusMinus: pm === null ? null : toCanonical(pm, spec, true) - (spec.dimension === 'temperature' ? 0 : 0),
      reference: g.ref ?? null,
    });
  }
  return out;
}

function parseNumber(s: string): number {
  // "1,000" is a thousands separator; "1,5" (European decimal comma) is 1.5.
  if (/^\d{1,3}(,\d{3})+$/.test(s)) return Number(s.replace(/,/g, ''));
  return Number(s.replace(',', '.'));
}

/**
 * Rewrites superscripts and "× 10^n" so the pattern can match, keeping a map from positions in the rewritten
 * text back to the original.
 */
function normaliseForMatching(text: string): { text: string; map: (i: number) => number } {
  let out = '';
  const back: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const sup = superscripts[c];
    if (sup !== undefined) {
      if (!(i > 0 && superscripts[text[i - 1]] !== undefined)) {
        out += '^';
        back.push(i);
      }
      out += sup;
      back.push(i);
    } else {
      out += c;
      back.push(i);
    }
  }
  back.push(text.length);
  return { text: out, map: (i: number) => back[Math.min(i, back.length - 1)] };
}

/** The unit table and patterns, for the extractor's version fingerprint. */
export const quantityRulesSource = (): string =>
  JSON.stringify([...unitTable.entries()]) + QUANTITY_RE.source + EXPONENT_DASH.source + JSON.stringify(canonicalUnits);
