import { elementNamesBySymbol } from '../../lib/structure/chemical-names.ts';
import { normaliseFormula } from '../../lib/structure/formula.ts';
import { parseQuantities, type Quantity } from '../../lib/structure/quantities.ts';

/** Helpers the transforms share: deterministic choice, spans, numbers written with the precision they had. */

/** A stable choice for a question (FNV-1a of its text), so a rerun generates the same cases. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export const pick = <T>(items: readonly T[], text: string, salt = ''): T => items[seedOf(salt + text) % items.length];

export const replaceSpan = (text: string, start: number, end: number, by: string): string => text.slice(0, start) + by + text.slice(end);

export const quantitiesOf = (question: string): Quantity[] => parseQuantities(question);

/** Numbers as written inside a quantity's text ("800–1000 °C" → two), exponents included ("9.74 × 10−4"). */
export const NUMBER = /\d+(?:[.,]\d+)?(?:\s*[×x]\s*10\^?[−-]?\d+|[eE][−-]?\d+)?/g;

/** The value a written number stands for ("9.74 × 10−4" → 0.000974, "5,4" → 5.4). */
export function numberValue(written: string): number {
  const m = /^(\d+(?:[.,]\d+)?)(?:\s*[×x]\s*10\^?([−-]?\d+)|[eE]([−-]?\d+))?$/.exec(written.trim());
  if (!m) return Number.NaN;
  const exponent = (m[2] ?? m[3] ?? '0').replace('−', '-');
  return Number(m[1].replace(',', '.')) * 10 ** Number(exponent);
}

/** Significant digits of a written number ("0.056" → 2, "560" → 2, "550.0" → 4). */
export function significantDigits(written: string): number {
  const digits = written.replace(/\s*[×x]\s*10.*$|[eE].*$/, '').replace(/[^\d.]/g, '');
  const [whole, frac = ''] = digits.split('.');
  const lead = (whole + frac).replace(/^0+/, '');
  if (!frac) return Math.max(1, lead.replace(/0+$/, '').length);
  return Math.max(1, lead.length);
}

/** A value written with `digits` significant digits, in plain notation ("0.56", "180", "1.2"). */
export function writeNumber(value: number, digits: number): string {
  if (value === 0) return '0';
  const text = Number(value.toPrecision(Math.max(1, Math.min(digits, 15)))).toString();
  if (!/e/.test(text)) return text;
  return value.toFixed(Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(value)))));
}

/**
 * The quantity's text with each of its written numbers (its values and a ± part, never a unit's exponent as in
 * "cm−2") passed through `f` in order, and its unit text replaced when `unit` is given.
 */
export function rewriteQuantity(q: Quantity, f: (written: string, value: number, i: number) => string, unit?: string): string {
  const count = q.values.length + (q.plusMinus === null ? 0 : 1);
  const numbers = [...q.text.matchAll(NUMBER)].slice(0, count);
  let out = '';
  let at = 0;
  numbers.forEach((m, i) => {
    out += q.text.slice(at, m.index) + f(m[0], numberValue(m[0]), i);
    at = m.index + m[0].length;
  });
  return unit === undefined ? out + q.text.slice(at) : `${out.trimEnd()} ${unit}`;
}

/** The unit as the quantity's text writes it (what follows its numbers). */
export function writtenUnit(q: Quantity): string {
  const count = q.values.length + (q.plusMinus === null ? 0 : 1);
  const last = [...q.text.matchAll(NUMBER)].slice(0, count).at(-1);
  return last ? q.text.slice(last.index + last[0].length).trim() : '';
}

/** The words just before a span ("at", "under", "of"). */
export const before = (text: string, start: number, chars = 14): string => text.slice(Math.max(0, start - chars), start);

/**
 * A condition the question states (the temperature a value was measured at, a pressure, a duration): a quantity
 * introduced by "at", "under", "in", "for", "@" or "during". What else the question quantifies is the value asked about.
 */
export function isCondition(question: string, q: Quantity): boolean {
  return /(?:\b(?:at|under|in|for|during|after|upon)|@)\s*(?:~|about|around|approximately|roughly)?\s*$/i.test(before(question, q.start, 24));
}

/** Formula-like words of the question that parse as formulas, with their offsets. */
export function formulasOf(question: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  for (const m of question.matchAll(/[A-Z][A-Za-z0-9.()[\]·*−–δ-]*[A-Za-z0-9)\]δ]/g)) {
    const word = m[0];
    if (!/\d|δ/.test(word) || !normaliseFormula(word)) continue;
    // Part of a formula PDF extraction spaced out ("Hg2 (Ba0.5Sr0.5 ) 2 YCu2O8"): not a formula of its own.
    if (/[([]\s*$/.test(question.slice(0, m.index)) || /^\s*[)\]]/.test(question.slice(m.index + word.length))) continue;
    // The salt of a hydrate ("Na0.35CoO2•yH2O") is not a formula of its own either.
    if (/^\s*[·•∙⋅*]/.test(question.slice(m.index + word.length))) continue;
    out.push({ text: word, start: m.index, end: m.index + word.length });
  }
  return out;
}

/** A flat formula (no parentheses) as element/count pairs, counts as written ("" for 1). */
export function formulaSegments(formula: string): { element: string; count: string }[] | null {
  if (/[()[\]·]/.test(formula)) return null;
  const segs: { element: string; count: string }[] = [];
  let rest = formula;
  while (rest) {
    const m = /^([A-Z][a-z]?)((?:\d*\.?\d+)?(?:[−–-][δxyz]|[δxyz])?)/.exec(rest);
    if (!m) return null;
    segs.push({ element: m[1], count: m[2] });
    rest = rest.slice(m[0].length);
  }
  return segs;
}

export const joinSegments = (segs: { element: string; count: string }[]): string => segs.map((s) => s.element + s.count).join('');

/** Element symbol → name (lib/structure/chemical-names.ts's table). */
export const ELEMENT_NAMES: Readonly<Record<string, string>> = Object.fromEntries(elementNamesBySymbol());
