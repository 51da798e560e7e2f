import type { Quantity } from './quantities.ts';

/**
 * Why a number with a unit in a sentence is not the value of a property it stands near: the two readers of stated
 * values (the structure's performance claims, lib/structure/paragraph.ts, and the graph's property–value tuples,
 * lib/graph/property-value-tuples.ts) ask the same questions here, so a guard added for one class of sentence holds
 * in the records, the graph and the answers alike.
 */
export type NotAValue = 'rate' | 'below-zero' | 'window' | 'argument' | 'bound' | 'processing' | 'change' | 'feature' | 'lost-inequality';

// What makes a value a rate: a unit divided by another just after it ("K/GPa", "K GPa−1", "K per GPa"), or a
// derivative or slope named just before it ("dTc/dP =", "a rate of", "pressure coefficient of").
const RATE_AFTER = /^\s*(?:\/\s*[A-Za-zµ°]|per\s+[A-Za-zµ°]|[A-Za-zµ°]+\s*(?:\^?\s*[-−–]\s*1|⁻¹)(?![\d.]))/;
const RATE_BEFORE = /(?:\bd[A-Za-z]+\s*\/\s*d[A-Za-z]+|\brates?\b|\bcoefficients?\b|\bslopes?\b|\bderivatives?\b)[^.;]{0,25}$/i;
// "absorption in the wavelength range of 450–550 nm": a window the sentence looked in, not a value of anything.
const RANGE_WINDOW = /\b(?:range|region|window|interval)\s*(?:of|from|between|=|:)?\s*$|\bbetween\s*$/i;
// "Hc2(T = 0 K)", "ρ(T = 300 K)": a value assigned to a variable inside a property's brackets is the argument the
// property is taken at, not a value of it (nor of the property named before).
const FUNCTION_ARGUMENT = /\(\s*[A-Za-z]\s*=\s*[~≈∼]?\s*$/;
// "T2 dependence in the resistivity up to 240 K", "measured … down to 4.2 K": a temperature that bounds where a
// behaviour was seen or a measurement went, not a value of the property named before ("Tc up to 40 K" is one).
const BOUND_BEFORE =
  /\b(?:dependences?|behaviou?rs?|measured|measurements?|ranges?|data|investigated|studied|recorded)\b[^.;]{0,50}?\b(?:up to|down to|below|above)\s*[~≈∼]?\s*$|\bdown to\s*[~≈∼]?\s*$/i;
// "fibers reacted at 1200 °C for 48 h showed an onset of superconductivity": the temperature a sample was made at.
const PROCESSED_AT =
  /\b(?:react|sinter|anneal|calcin|heat|synthesi[sz]|grown|grow|fir|quench|prepar|treat|dried|sealed|pressed|melt|cool)\w*\s+(?:(?:at|to|up to)\s+)?[~≈∼]?\s*$/i;
// "Tc is pushed up about 5 K", "the efficiency dropped by 3%", "shifted by 0.2 eV": the size of a change, not the
// value reached ("rises to 40 K" is the value).
const CHANGE_BEFORE =
  /\b(?:by|pushed\s+(?:up|down)|shift(?:s|ed)?|rais(?:es|ed)|lower(?:s|ed)|drops?|dropped|increas(?:es|ed)|decreas(?:es|ed)|enhanced|suppressed|reduced)\s+(?:(?:about|approximately|around|nearly|only|roughly|ca\.|some|almost|as much as)\s+)?[~≈∼]?\s*$/i;
// "reveals a crossover at 18.7 K", "a kink at 150 K": where a feature of a curve lies, not the property's value. (A
// maximum or a plateau is the property's own: "Tc … exhibits a broad maximum at 7.6 K".)
const FEATURE_AT =
  /\b(?:crossovers?|kinks?|anomal(?:y|ies)|upturns?|downturns?|shoulders?|humps?|jumps?|dips?|inflections?(?:\s+points?)?|sign\s+changes?)\s+(?:\w+\s+){0,2}(?:at|near|around)\s+[~≈∼]?\s*$/i;
// "ρ ∝ T2 in Tc < T 240 K", "in 120 K T 220 K": PDF extraction drops the "≤" of a range, leaving a bare variable just
// before the value; the value bounds the variable's range.
const LOST_INEQUALITY = /(?:^|[\s(,;])[TPHBE]\s*[<>≤≥]?\s*$/;

/**
 * Why `q` (a quantity of `text`, offsets in it) is not a value stated for a property, or null when it may be one.
 * Temperatures have more ways of being something else (a processing step, the end of a range) than other values.
 */
export function notAStatedValue(text: string, q: Pick<Quantity, 'start' | 'end' | 'dimension' | 'canonical'>): NotAValue | null {
  const lead = text.slice(Math.max(0, q.start - 80), q.start);
  // A Tafel slope is a rate by name ("a Tafel slope of 48 mV dec−1"): it is that property's value.
  if (q.dimension !== 'tafel-slope' && (RATE_AFTER.test(text.slice(q.end, q.end + 12)) || RATE_BEFORE.test(lead.slice(-40)))) return 'rate';
  // No absolute temperature is below zero.
  if (q.dimension === 'temperature' && q.canonical.some((v) => v < 0)) return 'below-zero';
  if (RANGE_WINDOW.test(lead.slice(-30))) return 'window';
  if (FUNCTION_ARGUMENT.test(lead)) return 'argument';
  if (CHANGE_BEFORE.test(lead.slice(-40))) return 'change';
  if (LOST_INEQUALITY.test(lead.slice(-6))) return 'lost-inequality';
  if (q.dimension === 'temperature') {
    if (BOUND_BEFORE.test(lead)) return 'bound';
    if (PROCESSED_AT.test(lead)) return 'processing';
    if (FEATURE_AT.test(lead.slice(-50))) return 'feature';
  }
  return null;
}

/**
 * "T2 behaviour in Tc < T < 240 K": past an inequality between the property's mention and the value, the value
 * bounds a range the property opens; it is not the property's value.
 */
export function pastInequality(text: string, property: { start: number; end: number }, q: { start: number; end: number }): boolean {
  return /[<>≤≥]/.test(property.end <= q.start ? text.slice(property.end, q.start) : text.slice(q.end, property.start));
}

/** The clause of a sentence a position lies in: semicolons part clauses that each say something of their own. */
export function clauseAround(text: string, at: number): { start: number; end: number } {
  const before = text.lastIndexOf(';', at - 1);
  const after = text.indexOf(';', at);
  return { start: before + 1, end: after === -1 ? text.length : after };
}

/**
 * Text of every rule of this module, for the version stamps of the readers that use it: the patterns only, never a
 * function's text, which differs between the transpilers of the server, the CLI and the worker (a stamp that differs
 * by process makes a worker refuse the coordinator's shards). A change to the code combining them bumps the readers'
 * version numbers.
 */
export const valueContextRulesSource = (): string =>
  [
    RATE_AFTER.source,
    RATE_BEFORE.source,
    RANGE_WINDOW.source,
    FUNCTION_ARGUMENT.source,
    BOUND_BEFORE.source,
    PROCESSED_AT.source,
    CHANGE_BEFORE.source,
    FEATURE_AT.source,
    LOST_INEQUALITY.source,
  ].join('\n');
