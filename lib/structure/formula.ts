/**
 * Chemical formulas as materials papers write them: hydrates (NiSO4·6H2O), parentheses (Ni(NO3)2), fractional,
 * doped and non-stoichiometric compositions (BaZr0.4Ce0.4Y0.2O3−δ, La1−xSrxMnO3), PDF-extracted spacing
 * ("YBa 2 Cu 3 O y") and Unicode subscripts. `normaliseFormula` returns one canonical spelling or null when the
 * text is not a formula; it never guesses.
 */

const ELEMENTS = new Set(
  (
    'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo ' +
    'Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl ' +
    'Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr'
  ).split(' '),
);

/** Whether `symbol` is a chemical element's symbol ("Mg"; not "Xq"). */
export const isElementSymbol = (symbol: string): boolean => ELEMENTS.has(symbol);

const subscriptDigits: Record<string, string> = {
  '₀': '0',
  '₁': '1',
  '₂': '2',
  '₃': '3',
  '₄': '4',
  '₅': '5',
  '₆': '6',
  '₇': '7',
  '₈': '8',
  '₉': '9',
  '₋': '-',
  '₊': '+',
};

export interface ParsedFormula {
  /** Canonical spelling: no spaces, ASCII digits, "·" for hydrates, "−δ" style written as "-δ". */
  formula: string;
  /** Element → amount for fixed compositions; null when a variable (x, δ) is involved. */
  composition: Record<string, number> | null;
  elements: string[];
}

/** Tidies the typography of a formula-like string (does not decide whether it is one). */
export function tidyFormula(raw: string): string {
  let s = raw.trim().replace(/[₀-₉₋₊]/g, (c) => subscriptDigits[c]);
  s = s
    .replace(/[\u2212\u2013\u2010\u2011]/g, '-')
    .replace(/[•∙⋅*]/g, '·')
    .replace(/(\d)\s*\.\s*(\d+)\s*H2O/g, (m, a, b) => (m.includes(' ') || !/\d\.\d/.test(m) ? `${a}·${b}H2O` : m))
    // A hydrate typed with a full stop ("NiSO4.6H2O"): a whole count, a whole number of waters, then H2O. A decimal
    // amount has a fractional part before it ("Na0.3CoO2·1.3H2O" keeps its 1.3), which this leaves alone.
    .replace(/([A-Z][a-z]?|\))([1-9]\d?)\.([1-9]\d?)H2O\b/g, '$1$2·$3H2O');
  // Square brackets group like round ones ("[Ce0.9Gd0.1]O2"); brackets around the whole formula ("(La0.6Sr0.4CoO3−δ)",
  // a formula given in parentheses after its name) are no part of it.
  s = s.replace(/\[/g, '(').replace(/\]/g, ')');
  if (s.startsWith('(') && s.endsWith(')') && closingOf(s, 0) === s.length - 1) s = s.slice(1, -1);
  s = s.replace(/\s*·\s*/g, '·').replace(/\s*-\s*([δxyz])\b/g, '-$1');
  // An oxygen nonstoichiometry typed as a letter that is not δ ("O3-d", "O5+α", "O3−delta", "O3±δ"): the same δ.
  s = s.replace(/(O\d*(?:\.\d+)?)\s*(?:([-+])|±)\s*(?:δ|α|d|delta)$/u, (_, o, sign) => `${o}${sign ?? '-'}δ`);
  // PDF extraction puts spaces between an element and its count: "YBa 2 Cu 3 O y" → "YBa2Cu3Oy".
  s = s.replace(/([A-Za-z)\]])\s+(?=[\dδxyz.](?![a-z]{2}))/g, '$1').replace(/(\d)\s+(?=[A-Z([])/g, '$1');
  return s;
}

/** The index of the bracket closing the one opened at `open`, or -1. */
function closingOf(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Parses a formula, or returns null when the string is not one (words, abbreviations, unknown symbols). */
export function normaliseFormula(raw: string): ParsedFormula | null {
  const s = tidyFormula(raw);
  if (!s || s.length > 80 || /\s/.test(s)) return null;
  const parts = s.split('·');
  const elements = new Set<string>();
  let variable = false;
  const total: Record<string, number> = {};
  for (const [i, part] of parts.entries()) {
    let body = part;
    let multiplier = 1;
    const lead = /^(\d+(?:\.\d+)?|[xyzn])(?=[A-Z(])/.exec(part);
    if (i > 0 && lead) {
      if (/^\d/.test(lead[1])) multiplier = Number(lead[1]);
      else variable = true;
      body = part.slice(lead[1].length);
    }
    const parsed = parseGroup(body);
    if (!parsed) return null;
    if (parsed.variable) variable = true;
    for (const [el, n] of Object.entries(parsed.counts)) {
      elements.add(el);
      total[el] = (total[el] ?? 0) + n * multiplier;
    }
  }
  if (elements.size === 0) return null;
  // A single capitalised word that happens to be element symbols ("CNT", "NF", "Co") is ambiguous: require a
  // digit, a variable, parentheses, a hydrate or two or more distinct elements with lower-case letters.
  if (!/[\d(·δ]/.test(s) && elements.size < 2) return null;
  if (!/[\d(·δxyz]/.test(s) && !/[a-z]/.test(s)) return null;
  return {
    formula: s,
    composition: variable ? null : Object.fromEntries(Object.entries(total).map(([k, v]) => [k, Number.parseFloat(v.toPrecision(10))])),
    elements: [...elements].sort(),
  };
}

/** Parses element symbols, counts, variables and nested (…)/[…] groups; null on anything else. */
function parseGroup(body: string): { counts: Record<string, number>; variable: boolean } | null {
  let i = 0;
  let variable = false;
  const count = (): number | null => {
    // "2", "0.4", "1-x", "3-δ", "x", "1+y": variable parts make the composition non-fixed.
    const m = /^(\d+(?:\.\d+)?)?((?:[-+]?(?:\d*\.)?\d*[xyzδ](?:\d+(?:\.\d+)?)?)+)?/.exec(body.slice(i));
    if (!m || m[0] === '') return 1;
    i += m[0].length;
    if (m[2]) variable = true;
    return m[1] ? Number(m[1]) : m[2] ? 0 : 1;
  };
  const parse = (close: string | null): Record<string, number> | null => {
    const counts: Record<string, number> = {};
    while (i < body.length) {
      const c = body[i];
      if (c === '(' || c === '[') {
        i++;
        const inner = parse(c === '(' ? ')' : ']');
        if (!inner) return null;
        const n = count();
        if (n === null) return null;
        for (const [el, k] of Object.entries(inner)) counts[el] = (counts[el] ?? 0) + k * (n || 1);
        continue;
      }
      if (close && c === close) {
        i++;
        return counts;
      }
      const m = /^[A-Z][a-z]?/.exec(body.slice(i));
      if (!m) return null;
      let sym = m[0];
      if (!ELEMENTS.has(sym)) {
        if (sym.length === 2 && ELEMENTS.has(sym[0])) sym = sym[0];
        else return null;
      }
      i += sym.length;
      const n = count();
      if (n === null) return null;
      counts[sym] = (counts[sym] ?? 0) + n;
    }
    return close ? null : counts;
  };
  const counts = parse(null);
  return counts ? { counts, variable } : null;
}

/**
 * Composition similarity of two formulas: cosine of their element amounts without oxygen (which would make every
 * oxide of the same anion count look alike), elements of variable compositions counted once. 0 when either is
 * not a formula. Used as the similarity of material analogues, where a text embedding of "BaCe0.7Zr0.1…" says
 * little about its chemistry.
 */
export function compositionCosine(a: string, b: string): number {
  const va = cationVector(a);
  const vb = cationVector(b);
  if (!va || !vb) return 0;
  let d = 0;
  for (const [el, x] of va) d += x * (vb.get(el) ?? 0);
  return d;
}

const cationVectors = new Map<string, Map<string, number> | null>();
function cationVector(formula: string): Map<string, number> | null {
  if (cationVectors.has(formula)) return cationVectors.get(formula)!;
  const p = normaliseFormula(formula);
  let v: Map<string, number> | null = null;
  if (p) {
    const amounts = Object.entries(p.composition ?? Object.fromEntries(p.elements.map((e) => [e, 1]))).filter(([el, x]) => el !== 'O' && x > 0);
    const norm = Math.hypot(...amounts.map(([, x]) => x));
    if (norm > 0) v = new Map(amounts.map(([el, x]) => [el, x / norm]));
  }
  if (cationVectors.size > 50_000) cationVectors.clear();
  cationVectors.set(formula, v);
  return v;
}

// An element symbol with an optional count ("2", "0.85", "1−x", "x", "3−δ"), repeated, spaces allowed between.
// A count may carry its uncertainty ("0.31(3)"); a hydrate's dot may join two parts ("CoO 2 •yH 2 O").
const COUNT = String.raw`(?:\d+(?:\.\d+)?(?:\(\d+\))?(?:\s?[-−–+]\s?(?:\d+(?:\.\d+)?)?[xyzδ])?|[xyzδ])`;
const HYDRATE_DOT = String.raw`(?:[•·∙]\s?(?:\d+(?:\.\d+)?(?:\(\d+\))?|[xyz])?\s?)`;
const SPACED_FORMULA = new RegExp(String.raw`(?<![\w.])(?:[A-Z][a-z]?\s?${COUNT}?\s?${HYDRATE_DOT}?){2,}(?![\w])`, 'g');

export interface SpacedFormula {
  start: number;
  end: number;
  /** The formula with the spaces removed ("Ba 1−x K x BiO 3" → "Ba1−xKxBiO3"). */
  joined: string;
}

// A unit symbol that is also an element ("3.8 K", "550C") and the units that may follow a bare count ("560 mW/cm2").
const VALUE_WITH_UNIT = /\s\d+(?:\.\d+)?\s?[KCVWAST](?![a-z\d])(?!\s?(?:\d|[xyzδ](?![\p{L}\d])))/u;
const UNIT_AHEAD = /^\s?(?:[mkµμnMG]?(?:W|V|A|S|Pa|Ω|J|g|L|Hz|eV|m)\b|°|℃|%|ohm|h\b|hr?s?\b|min\b|mol\b|wt|at\.?%|vol)/;

/**
 * A typed question's value is not part of the formula before it: "CeOBiS2 Tc 3.8K" and "micro SOFC 560 mW/cm2"
 * must not be read as the spaced formulas "…Tc3.8K" and "SOFC560".
 */
function trimTrailingValue(raw: string, after: string): string {
  const value = raw.match(VALUE_WITH_UNIT);
  if (value && !(value.index! + value[0].length === raw.length && /^[a-z\d]/.test(after))) return raw.slice(0, value.index);
  if (UNIT_AHEAD.test(after)) return raw.replace(/\s\d+(?:\.\d+)?$/, '');
  return raw;
}

/**
 * Formulas that PDF extraction (or a copied question) has broken up with spaces: "Sr 0.9 La 0.1 CuO 2",
 * "Ba 1−x K x BiO 3", "MgB 2". Accepted only when the joined text parses as a formula of two or more elements
 * and at least one count was separated by a space, so ordinary capitalised words are never glued together.
 */
export function findSpacedFormulas(text: string): SpacedFormula[] {
  const out: SpacedFormula[] = [];
  // A space before a count ("Sr 0.9"), after a count with a variable ("GdSr2Ru1−x Cu2+x O8"), or inside one
  // ("Co2− xFexO5+ δ"): no word of prose ends in "1−x" or "5+ δ".
  const spacedCount = /[A-Za-z]\s(?:\d|[xyzδ]\b)|\d\s?[-−–+]\s?[xyzδ]\s[A-Z]|\d[-−–+]\s[xyzδ](?![a-z])/;
  if (!/[A-Z][a-z]?\s\d/.test(text) && !/[A-Z][a-z]?\s[xyδ]\b/.test(text) && !spacedCount.test(text)) return out;
  for (const m of text.matchAll(SPACED_FORMULA)) {
    const raw = trimTrailingValue(m[0].trimEnd(), text.slice(m.index! + m[0].trimEnd().length));
    if (!/\s/.test(raw) || !spacedCount.test(raw)) continue;
    const joined = raw.replace(/\s+/g, '').replace(/(\d)\(\d+\)/g, '$1');
    const parsed = normaliseFormula(joined);
    if (parsed && parsed.elements.length >= 2) out.push({ start: m.index!, end: m.index! + raw.length, joined });
  }
  // "YBa2(Cu1−yCoy)3O 7+δ": the last element after a bracketed group split from its variable count; the formula runs
  // back from it to the word's start.
  for (const m of text.matchAll(BRACKETED_TAIL)) {
    const tail = m.index! + m[1].length;
    const start = text.lastIndexOf(' ', tail) + 1;
    const end = m.index! + m[0].length;
    if (out.some((f) => f.start < end && start < f.end)) continue;
    const joined = text.slice(start, end).replace(/\s+/g, '');
    const parsed = normaliseFormula(joined);
    if (parsed && parsed.elements.length >= 2) out.push({ start, end, joined });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** A bracketed group's count, an element, a space and a count with a variable: ")3O 7+δ". */
const BRACKETED_TAIL = /(\)\d*)[A-Z][a-z]?\s\d+(?:\.\d+)?\s?[-−–+]\s?[xyzδ](?![\p{L}\d])/gu;

/**
 * Formulas typed in lower case with spaces between their elements, as a hurried question writes them ("gd sr2 ru
 * cu2 o8" for GdSr2RuCu2O8): three or more words, each an element symbol with an optional count, at least two of
 * them counted and one in lower case (the capitalised form is `findSpacedFormulas`'s), joined and capitalised when
 * the result parses as a formula of two or more elements. Ordinary words never qualify: prose does not put counts on
 * short words in a row; two words are left alone, since "co2 n2" is two gases, not a cobalt nitride.
 */
export function findTypedFormulas(text: string): SpacedFormula[] {
  const out: SpacedFormula[] = [];
  const word = /[A-Za-z]{1,2}(?:\d+(?:\.\d+)?)?/.source;
  for (const m of text.matchAll(new RegExp(String.raw`(?<![\p{L}\p{N}.-])${word}(?:\s+${word}){2,}(?![\p{L}\p{N}])`, 'gu'))) {
    // The run's words with their offsets, split where a word is no element ("of", "and") or is "tc", which in a
    // question is the critical temperature ("tc gd sr2 ru cu2 o8"), not technetium.
    let run: { text: string; start: number; symbol: string; count: string }[] = [];
    const flush = () => {
      const counted = run.filter((w) => w.count).length;
      if (run.length >= 3 && counted >= 2 && run.some((w) => /[a-z]/.test(w.text[0]))) {
        const joined = run.map((w) => w.symbol + w.count).join('');
        const parsed = normaliseFormula(joined);
        const last = run[run.length - 1];
        if (parsed && parsed.elements.length >= 2) out.push({ start: run[0].start, end: last.start + last.text.length, joined });
      }
      run = [];
    };
    for (const w of m[0].matchAll(/\S+/g)) {
      const [, letters, count] = w[0].match(/^([A-Za-z]{1,2})(.*)$/)!;
      const symbol = letters[0].toUpperCase() + letters.slice(1).toLowerCase();
      if (!ELEMENTS.has(symbol) || w[0] === 'tc') flush();
      else run.push({ text: w[0], start: m.index! + w.index!, symbol, count });
    }
    flush();
  }
  return out;
}
