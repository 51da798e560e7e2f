import { formulaKey } from '../structure/terms.ts';
import { normaliseFormula, tidyFormula } from '../structure/formula.ts';

/**
 * Short forms of materials the corpus and the records define by writing the formula before them ("LiFePO4/C (LFP)",
 * "La0.8Sr0.2MnO3 (LSM)", "Gd0.2Ce0.8O1.9 (GDC)"), so that a question typed with the short form ("how do u make LFP
 * cathode powder") reaches the material. A short form is read as a formula only when the formula parses, its
 * elements' symbols spell at least two of the short form's letters in order, the first among them (LFP: Li, Fe, P;
 * GDC: Gd, Ce), and one composition holds at least 60 % of its uses for formulas (LCO is LaCrO3 in some papers,
 * LaCoO3 in others: read as neither). Compositions written several ways count together (Gd0.2Ce0.8O1.9 and Ce0.8Gd0.2O1.9).
 */
export interface MaterialAbbreviation {
  /** The formula as the corpus writes it most often for the composition. */
  formula: string;
  /** Uses of that composition, of all the short form's formula uses. */
  uses: number;
  total: number;
  /** Where it was read: a text defining it (the default), or the records' target formulas spelling it. */
  source?: 'records';
}

const SHARE = 0.6;

/** A composite or a support after a slash ("LiFePO4/C", "Pt/C"): the material is what comes before it (not a fraction: Ni1/3). */
const beforeSlash = (s: string) => s.split(/\/(?=[A-Z(])/)[0];

/** Whether the formula's element symbols spell two or more of the short form's letters in order, its first among them. */
export function spellsShortForm(short: string, formula: string): boolean {
  const symbols = [...formula.matchAll(/[A-Z][a-z]?/g)].map((m) => m[0][0].toLowerCase());
  const letters = short.toLowerCase();
  if (!symbols.includes(letters[0])) return false;
  let matched = 0;
  let at = 0;
  for (const c of letters) {
    const i = symbols.indexOf(c, at);
    if (i >= 0) {
      matched++;
      at = i + 1;
    }
  }
  return matched >= 2;
}

/**
 * The short forms read as formulas, from what the corpus writes (see `abbreviatedFormulasOf`). `wordUses`: how often
 * the corpus defines the short form by words instead ("carbon nanotubes (CNT)", from lib/retrieval/abbreviations.ts),
 * which count against the formula: CNT is not Ca0.6Nd0.26TiO3 because one paper wrote it so.
 */
export function materialAbbreviationMap(
  rows: { long: string; short: string; uses: number }[],
  wordUses: (short: string) => number = () => 0,
): Map<string, MaterialAbbreviation> {
  const readings = new ShortFormReadings();
  for (const r of rows) {
    const written = tidyFormula(beforeSlash(r.long).replace(/[-−–]$/, ''));
    const parsed = normaliseFormula(written);
    if (!parsed?.composition || parsed.elements.length < 2 || !spellsShortForm(r.short, written)) continue;
    readings.add(r.short, parsed.formula, written, r.uses);
  }
  // Of its uses for formulas: a fragment in brackets ("PO4 (LFP)") or a word ("Fig (SEM)") is no reading of it.
  return readings.read({ otherUses: wordUses });
}

/**
 * The compositions each short form is written for, with their uses, and the one it is read as: the composition that
 * holds SHARE of its uses (and `minUses` or more), shown in the form most often written.
 */
class ShortFormReadings {
  private readonly byShort = new Map<string, Map<string, { formula: Map<string, number>; uses: number }>>();

  add(short: string, formula: string, written: string, uses: number): void {
    const key = formulaKey(formula);
    if (!key) return;
    let compositions = this.byShort.get(short);
    if (!compositions) this.byShort.set(short, (compositions = new Map()));
    let c = compositions.get(key);
    if (!c) compositions.set(key, (c = { formula: new Map(), uses: 0 }));
    c.formula.set(written, (c.formula.get(written) ?? 0) + uses);
    c.uses += uses;
  }

  read(opts: { otherUses?: (short: string) => number; minUses?: number; source?: 'records' } = {}): Map<string, MaterialAbbreviation> {
    const out = new Map<string, MaterialAbbreviation>();
    for (const [short, compositions] of this.byShort) {
      const [best] = [...compositions.values()].sort((a, b) => b.uses - a.uses);
      const total = [...compositions.values()].reduce((n, c) => n + c.uses, 0) + (opts.otherUses?.(short) ?? 0);
      if (best.uses < (opts.minUses ?? 0) || best.uses / total < SHARE) continue;
      const formula = [...best.formula].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length)[0][0];
      out.set(short, { formula, uses: best.uses, total, ...(opts.source ? { source: opts.source } : {}) });
    }
    return out;
  }
}

/** A short form spelled from the records' targets must be made by this many recipes and hold this share of them. */
const SPELLED_USES = 10;

/**
 * The short forms a formula's element symbols spell, by their first letters in the order written, with and without
 * a trailing O, of three to five letters: Li7La3Zr2O12 spells LLZO and LLZ, LiCoO2 LCO, BaZr0.8Y0.2O3 BZYO and BZY.
 * (Without a leading Li too, they spelled mostly noise: LiFePO4 "FPO", Li10GeP2S12 "GPS".)
 */
export function spelledShortForms(written: string): string[] {
  const parsed = normaliseFormula(written);
  if (!parsed?.composition || parsed.elements.length < 2) return [];
  const symbols = [...written.matchAll(/[A-Z][a-z]?/g)].map((m) => m[0]).filter((s) => parsed.elements.includes(s));
  const distinct = symbols.filter((s, i) => symbols[i - 1] !== s);
  const forms = new Set<string>();
  for (const dropO of [false, true]) {
    const part = dropO ? (distinct[distinct.length - 1] === 'O' ? distinct.slice(0, -1) : []) : distinct;
    const form = part.map((s) => s[0]).join('');
    if (form.length >= 3 && form.length <= 5) forms.add(form);
  }
  return [...forms];
}

/**
 * Short forms no text defines, spelled from the records' target formulas (see `spelledShortForms`): read as the
 * composition that holds at least 60 % of the recipes whose targets spell it, made by ten or more. On the shared
 * records LLZO, which no paper here defines by a formula, reaches Li7La3Zr2O12 (57 recipes), LTO Li4Ti5O12 and LNMO
 * LiNi0.5Mn1.5O4; LCO (LiCoO2 126, LaCoO3 73, LaCrO3 23 recipes) and BST (a family of Ba/Sr ratios) are read as
 * none, and NMC, which the formulas spell only without their Li, is not read. Only questions that ask how a material
 * is made read these (lib/pipelines/run.ts).
 */
export function spelledAbbreviationMap(targets: readonly { formula: string; uses: number }[]): Map<string, MaterialAbbreviation> {
  const readings = new ShortFormReadings();
  for (const t of targets) {
    const written = tidyFormula(beforeSlash(t.formula));
    const parsed = normaliseFormula(written);
    if (!parsed?.composition) continue;
    for (const short of spelledShortForms(written)) readings.add(short, parsed.formula, written, t.uses);
  }
  return readings.read({ minUses: SPELLED_USES, source: 'records' });
}

/**
 * The question with each short form the map reads as a formula replaced by it, where the question does not already
 * name a material by it; and what was replaced. `isMaterial` says whether a word is a material as typed (YSZ is).
 */
export function expandMaterialAbbreviations(
  map: ReadonlyMap<string, MaterialAbbreviation>,
  text: string,
  isMaterial: (word: string) => boolean,
): { text: string; expansions: { from: string; to: string; uses: number; total: number; source?: 'records' }[] } {
  const expansions: { from: string; to: string; uses: number; total: number; source?: 'records' }[] = [];
  if (!map.size) return { text, expansions };
  const out = text.replace(/(?<![\p{L}\p{N}-])[A-Z][A-Za-z]{1,5}(?![\p{L}\p{N}])/gu, (word) => {
    const m = map.get(word);
    if (!m || isMaterial(word)) return word;
    expansions.push({ from: word, to: m.formula, uses: m.uses, total: m.total, ...(m.source ? { source: m.source } : {}) });
    return m.formula;
  });
  return { text: out, expansions };
}
