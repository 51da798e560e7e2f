import { boundedMemo } from '../../common/bounded-memo.ts';
import { chemicalNameToFormula, elementNameOf, findChemicalNames } from '../../structure/chemical-names.ts';
import { isElementSymbol, normaliseFormula, tidyFormula } from '../../structure/formula.ts';
import { formulaKey, textFacets } from '../../structure/terms.ts';
import { lexiconEntries } from '../../structure/materials.ts';
import { paperFacets, perPaper, titleMaterials } from '../coverage.ts';
import type { RetrievalIndex } from '../index.ts';
import type { QuestionAnalysis } from '../question.ts';

/**
 * Names compare after their notation is normalised. A chemist writes one material many ways: a composition or its
 * family (La0.6Sr0.4CoO3−δ, La1−xSrxCoO3), a dopant phrase (Ce0.9Gd0.1O2−δ, "Gd-doped ceria", "gadolinium-doped
 * CeO2"), a hydrate with any separator (NiSO4·6H2O, NiSO4*6H2O, NiSO4.6H2O). What the decision needs is whether
 * the best paper states the material the question means (stated, or its family with the composition unchecked),
 * states another one in its place (another dopant, host or composition: a contradiction), or says nothing of it.
 *
 * A family is the set of elements a formula is made of: two formulas of one family differ only in their amounts.
 */
export type MaterialStatus = 'stated' | 'family' | 'contradicted' | 'absent';

export interface MaterialVerdict {
  /** The question's material keys this verdict is about (one written name may give several). */
  keys: string[];
  /** As the question writes it. */
  written: string;
  status: MaterialStatus;
  /** What the paper states in its place, for a contradiction ("Ce0.8Sm0.2O2−δ"), or of its family. */
  stated: string | null;
  /** A mixed compound named in words: its keys are its parts, none of which is it alone. */
  mixed?: boolean;
}

/** A material the question names, with the keys it gave and the family it belongs to. */
interface NamedMaterial {
  keys: string[];
  written: string;
  /** Sorted element symbols, "Ce-Gd-O"; null when the name is not a formula (a lexicon name: "YSZ"). */
  family: string | null;
  /** Element amounts of a fixed composition; null for a family (x, δ, a dopant phrase). */
  composition: Record<string, number> | null;
  /** Named in words as one compound of several elements ("strontium titanium oxide"): its keys are only its parts. */
  mixed?: boolean;
}

const familyOf = (elements: Iterable<string>) => [...new Set(elements)].sort().join('-');

interface ParsedKey {
  family: string;
  composition: Record<string, number> | null;
}
/** A formula key's family and composition, once per key. */
const parseKey = boundedMemo((key: string): ParsedKey | null => {
  const f = normaliseFormula(key);
  return f && f.elements.length >= 2 ? { family: familyOf(f.elements), composition: f.composition } : null;
}, 100_000);

// "Gd-doped ceria", "gadolinium-doped CeO2", "Sr-substituted LaMnO3", "Gd doped CeO2".
const DOPANT_PHRASE = /\b([A-Z][a-z]?|[a-z]{3,})[\s-](?:doped|substituted)\s+([A-Za-z][\w.()−-]*)/g;
const HYDRATE = /[·•∙⋅*.]\s*\d*(?:\.\d+)?\s*(?:[xyn]\s*)?H2O$|\s*hydrate$/;

/**
 * A lexicon material's family from its formula when that is a doped family ("GDC" → Ce-Gd-O, from Ce1−xGdxO2−δ), or
 * null: a fixed compound's name (ethanol, ceria) is checked by its own key, not as a family with siblings.
 */
const lexiconFamily = boundedMemo((key: string): string | null => {
  const entry = lexiconEntries().find((e) => e.key === key);
  const f = entry?.formula ? normaliseFormula(entry.formula) : null;
  return f && !f.composition && f.elements.length >= 2 ? familyOf(f.elements) : null;
}, 1_000);

/** The family of a material term: a formula's elements (`f:O3SrTi` → O-Sr-Ti), a doped lexicon name's (`m:GDC`); else null. */
export function materialFamily(term: string): string | null {
  if (term.startsWith('f:')) return parseKey(term.slice(2))?.family ?? null;
  return term.startsWith('m:') ? lexiconFamily(term.slice(2)) : null;
}

/** An element by symbol or name ("Gd", "gadolinium"), or null. */
function elementOf(word: string): string | null {
  if (isElementSymbol(word)) return word;
  const f = chemicalNameToFormula(word);
  return f && isElementSymbol(f) ? f : null;
}

/** The host of a dopant phrase as a formula ("ceria" → CeO2, "LaMnO3"), or null. */
function hostFormula(word: string): string | null {
  const named = chemicalNameToFormula(word);
  if (named) return named;
  return normaliseFormula(tidyFormula(word)) ? tidyFormula(word) : null;
}

/**
 * The materials a question names, each once: its dopant phrases as families (and the keys their words gave: the
 * host's formula, the dopant element, a lexicon name such as "SDC"), its formulas with their family, and the rest
 * (lexicon names) as they are. Keys that one written word gave (a hydrate and its anhydrous salt) stay together.
 */
export function namedMaterials(analysis: Pick<QuestionAnalysis, 'body' | 'materials' | 'materialNames'>): NamedMaterial[] {
  const out: NamedMaterial[] = [];
  const claimed = new Set<string>();
  for (const m of analysis.body.matchAll(DOPANT_PHRASE)) {
    const dopant = elementOf(m[1]);
    const host = hostFormula(m[2].replace(/[.,;:!?)]+$/, ''));
    const parsed = host ? normaliseFormula(host) : null;
    if (!dopant || !parsed) continue;
    const phrase = textFacets(m[0]);
    const keys = [...new Set([...phrase.formulas.map((k) => `f:${k}`), ...phrase.materials.map((k) => `m:${k}`), `f:${dopant}`])].filter((k) =>
      analysis.materials.includes(k),
    );
    for (const k of keys) claimed.add(k);
    out.push({ keys, written: m[0], family: familyOf([...parsed.elements, dopant]), composition: null });
  }
  for (const m of mixedNames(analysis.body)) {
    const keys = m.parts.map((k) => `f:${k}`).filter((k) => analysis.materials.includes(k));
    for (const k of keys) claimed.add(k);
    out.push({ keys, written: m.written, family: m.family, composition: null, mixed: true });
  }
  const byWord = new Map<string, string[]>();
  for (const key of analysis.materials) {
    if (claimed.has(key)) continue;
    const written = analysis.materialNames[key];
    if (written && HYDRATE.test(written)) byWord.set(written, [...(byWord.get(written) ?? []), key]);
    else out.push(materialOf(key, written ?? key.slice(2)));
  }
  for (const [written, keys] of byWord) {
    // A hydrate is its anhydrous salt for what it names: the water is notation ("·6H2O", "*6H2O", "hexahydrate").
    const salt = formulaKey(tidyFormula(written.replace(HYDRATE, '')));
    const anhydrous = salt ? `f:${salt}` : keys[0];
    out.push({ ...materialOf(anhydrous, written), keys: [...new Set([...keys, anhydrous])] });
  }
  // One word is one material however many keys it gave ("water": f:H2O and the lexicon's m:H2O); a composite
  // ("La0.6Sr0.4CoO3/Ni") names several, each held to its own.
  const byName = new Map<string, NamedMaterial>();
  // Joined by "/", "@" or a hyphen before a capital ("NiO-SDC", "LSM-YSZ"; not "O3-δ" or "Gd-doped").
  const composite = (written: string) => /[/@]|[A-Za-z0-9)]-(?=[A-Z])/.test(written);
  for (const m of out) {
    const seen = composite(m.written) ? undefined : byName.get(m.written);
    if (composite(m.written)) {
      byName.set(`${m.written}\u0000${m.keys.join()}`, m);
      continue;
    }
    if (!seen) byName.set(m.written, m);
    else
      byName.set(m.written, {
        ...seen,
        keys: [...new Set([...seen.keys, ...m.keys])],
        family: seen.family ?? m.family,
        composition: seen.composition ?? m.composition,
      });
  }
  return [...byName.values()];
}

/**
 * A mixed compound named in words, element names before a named compound ("strontium titanium oxide", "lithium iron
 * phosphate", "barium zirconium cerium yttrium oxide"): one material of the family of all their elements, amounts
 * unsaid — not a strontium and a titanium oxide. The parts' formulas are kept, as the question's keys.
 */
export function mixedNames(text: string): { written: string; family: string; parts: string[] }[] {
  const names = findChemicalNames(text);
  const out: { written: string; family: string; parts: string[] }[] = [];
  let run: typeof names = [];
  for (const n of names) {
    const adjacent = run.length > 0 && /^\s+$/.test(text.slice(run[run.length - 1].end, n.start));
    if (!adjacent) run = [];
    const single = isElementSymbol(n.formula);
    if (!single && run.length > 0) {
      const parts = [...run.map((r) => r.formula), n.formula];
      const elements = parts.flatMap((f) => (isElementSymbol(f) ? [f] : (normaliseFormula(f)?.elements ?? [])));
      out.push({ written: text.slice(run[0].start, n.end), family: familyOf(elements), parts: parts.map((f) => formulaKey(f) ?? f) });
      run = [];
      continue;
    }
    run = single ? [...run, n] : [];
  }
  return out;
}

/**
 * A name without what the question adds to it: a composite ending in a dopant phrase's first word ("NiO–Gd-doped"
 * of "NiO–Gd-doped ceria"), or an acronym or formula with a participle after it ("GDC-infiltrated", "LSM-based",
 * "YSZ-supported"). The corpus knows such a word when it knows the name.
 */
export const withoutDescriptor = (w: string): string =>
  w.replace(/[-–](?:[A-Z][a-z]?|[a-z]{3,})-(?:doped|substituted|stabili[sz]ed|based)$/, '').replace(/(?<=[A-Z\d)δ])[-–][a-z]{3,}(?:ed|ing)$/, '');

function materialOf(key: string, written: string): NamedMaterial {
  const parsed = key.startsWith('f:') ? parseKey(key.slice(2)) : null;
  // A lexicon name is of its formula's family ("SDC": Ce-O-Sm), its amounts unsaid.
  const family = parsed?.family ?? (key.startsWith('m:') ? lexiconFamily(key.slice(2)) : null);
  return { keys: [key], written, family, composition: parsed?.composition ?? null };
}

/** The families of the formulas a paper states (paragraphs and title), each with its formulas. */
const paperFamilies = perPaper((index, paperId): Map<string, { key: string; composition: Record<string, number> | null }[]> => {
  const out = new Map<string, { key: string; composition: Record<string, number> | null }[]>();
  for (const m of [...paperFacets(index, paperId).materials, ...titleMaterials(index, paperId)]) {
    // A lexicon name the paper writes ("SDC") states its formula's family, amounts unsaid.
    const lexicon = m.startsWith('m:') ? lexiconFamily(m.slice(2)) : null;
    const p = m.startsWith('f:') ? parseKey(m.slice(2)) : lexicon ? { family: lexicon, composition: null } : null;
    if (!p) continue;
    const list = out.get(p.family);
    if (list) list.push({ key: m.slice(2), composition: p.composition });
    else out.set(p.family, [{ key: m.slice(2), composition: p.composition }]);
  }
  return out;
});

/**
 * Fixed compositions that agree amount by amount (within 0.05: "Ce0.9Gd0.1" and "Ce0.9Gd0.10" alike), oxygen aside
 * (its non-stoichiometry is notation) — or that differ by whole waters only (lithium acetate and its dihydrate).
 */
function sameComposition(a: Record<string, number>, b: Record<string, number>): boolean {
  const els = new Set([...Object.keys(a), ...Object.keys(b)].filter((e) => e !== 'O' && e !== 'H'));
  if (![...els].every((e) => Math.abs((a[e] ?? 0) - (b[e] ?? 0)) <= 0.05)) return false;
  const dH = (a.H ?? 0) - (b.H ?? 0);
  const dO = (a.O ?? 0) - (b.O ?? 0);
  if (Math.abs(dH) < 0.05) return true;
  return Number.isInteger(dO) && Math.abs(dH - 2 * dO) < 1e-6 && Math.abs(dO) <= 12;
}

/** Elements that are no dopant or host in the place of another: a phosphate is no sibling of an ethoxide. */
const NONMETALS = new Set(['H', 'C', 'N', 'O', 'P', 'S', 'F', 'Cl', 'Br', 'I']);

/** Families one element away from `family` (another dopant or host in the same place), metals only. */
function siblings(family: string, stated: Map<string, unknown>): string[] {
  const mine = family.split('-');
  return [...stated.keys()].filter((f) => {
    const theirs = f.split('-');
    if (theirs.length !== mine.length) return false;
    const differ = mine.filter((e) => !theirs.includes(e));
    return differ.length === 1 && !NONMETALS.has(differ[0]);
  });
}

/**
 * Each named material of the question against a paper: stated (a key the paper states, or a hydrate's salt),
 * family (the paper states its family: the same elements, amounts unchecked or written as x and δ), contradicted
 * (the paper states the same family at another fixed composition, or a family one element away — another dopant
 * or host — and not this one), or absent.
 */
export function materialVerdicts(index: RetrievalIndex, analysis: QuestionAnalysis, paperId: string, statedKeys: ReadonlySet<string>): MaterialVerdict[] {
  const families = paperFamilies(index, paperId);
  const named = namedMaterials(analysis).map((m): MaterialVerdict => {
    const base = { keys: m.keys, written: m.written, ...(m.mixed ? { mixed: true } : {}) };
    if (m.keys.some((k) => statedKeys.has(k)) && (m.family === null || m.composition !== null || m.keys.every((k) => statedKeys.has(k))))
      return { ...base, status: 'stated', stated: null };
    if (m.family === null) return { ...base, status: 'absent', stated: null };
    const same = families.get(m.family) ?? [];
    const agrees = same.filter((s) => !m.composition || !s.composition || sameComposition(m.composition, s.composition));
    // A family asked (x and δ, a dopant phrase) is met by any of its members; a composition asked, by a member
    // with its amounts, or only by the family written with x (then unchecked).
    if (agrees.length)
      return {
        ...base,
        status: !m.composition || agrees.some((s) => s.composition) ? 'stated' : 'family',
        stated: writtenFormula(index, paperId, agrees[0].key),
      };
    const near = siblings(m.family, families);
    if (same.length) return { ...base, status: 'contradicted', stated: writtenFormula(index, paperId, same[0].key) };
    if (near.length) return { ...base, status: 'contradicted', stated: writtenFormula(index, paperId, families.get(near[0])![0].key) };
    return { ...base, status: 'absent', stated: null };
  });
  return [...named, ...addedElementVerdicts(index, analysis.body, paperId)];
}

/** A formula key as the paper writes it ("La0.6Sr0.4CoO3" for CoLa0.6O3Sr0.4), else the key. */
function writtenFormula(index: RetrievalIndex, paperId: string, key: string): string {
  const paper = index.papers.get(paperId);
  for (const text of [paper?.title ?? '', ...(paper?.paragraphIds ?? []).map((id) => index.paragraphs.get(id)?.text ?? '')])
    for (const m of text.matchAll(/[A-Z][A-Za-z0-9.()·−δ-]*[A-Za-z0-9)δ]/g)) if (formulaKey(tidyFormula(m[0])) === key) return m[0];
  return key;
}

/** The dopant phrases of a text with their families ("Sr-doped LaCoO3" → Co-La-O-Sr). */
export function dopantPhrases(text: string): { written: string; family: string }[] {
  return namedMaterials({ body: text, materials: [], materialNames: {} }).filter((m) => m.family && /doped|substituted/.test(m.written)) as {
    written: string;
    family: string;
  }[];
}

/**
 * Families of every formula the corpus's paragraphs state, each with its formula keys and how many paragraphs state
 * them: read from the structured field's `f:` terms (the paragraphs' facets stay packed).
 */
const familyTables = new WeakMap<RetrievalIndex, Map<string, Map<string, number>>>();
function corpusFamilies(index: RetrievalIndex): Map<string, Map<string, number>> {
  let table = familyTables.get(index);
  if (!table) {
    table = new Map();
    for (const [term, df] of index.paragraphLexical.termsWithPrefix('f:')) {
      const parsed = parseKey(term.slice(2));
      if (!parsed) continue;
      let keys = table.get(parsed.family);
      if (!keys) table.set(parsed.family, (keys = new Map()));
      keys.set(term, df);
    }
    familyTables.set(index, table);
  }
  return table;
}

/** Reads the corpus's formula families now, not on the first question that names a material (64 ms at ten times the shared corpus). */
export function warmCorpusFamilies(index: RetrievalIndex): void {
  corpusFamilies(index);
}

/** Whether the corpus knows a material in any notation of its family (a family itself: "Ce-Gd-O"). */
export function familyKnown(index: RetrievalIndex, word: string): boolean {
  const known = corpusFamilies(index);
  if (word.includes('-') && known.has(word)) return true;
  const w = word.replace(HYDRATE, '');
  const key = formulaKey(tidyFormula(w));
  const parsed = key ? parseKey(key) : null;
  return !!parsed && known.has(parsed.family);
}

/** A family's formulas as the corpus states them (`f:` terms), most stated first. */
export function familyMembers(index: RetrievalIndex, family: string, limit = 4): string[] {
  const keys = corpusFamilies(index).get(family);
  return keys
    ? [...keys]
        .sort((a, b) => b[1] - a[1])
        .slice(0, limit)
        .map(([k]) => k)
    : [];
}

/**
 * Search terms for the members of the families a text names without a composition — La1−xSrxMnO3, "Gd-doped ceria" —
 * so that a question in family notation meets the papers that state one member (La0.7Sr0.3MnO3, Ce0.9Gd0.1O2−δ).
 */
export function familyExpansions(
  index: RetrievalIndex,
  text: string,
  formulas: readonly string[],
  mixed: readonly { family: string }[] = mixedNames(text),
): string[] {
  const out: string[] = [];
  for (const k of formulas) {
    const p = parseKey(k);
    if (p && !p.composition) out.push(...familyMembers(index, p.family));
  }
  if (/doped|substituted/.test(text)) for (const phrase of dopantPhrases(text)) out.push(...familyMembers(index, phrase.family));
  for (const m of mixed) out.push(...familyMembers(index, m.family));
  return [...new Set(out)];
}

// An element put onto or into a material ("Ru-impregnated LSM-YSZ", "Pd-loaded", "Ag-decorated"): a material asked.
const ADDED_ELEMENT = /\b([A-Z][a-z]?|[a-z]{4,})[- ](?:impregnated|infiltrated|loaded|decorated|modified|coated|promoted)\b/g;
// The same role in a paper's text, hyphenated ("Pd-impregnated": "In modified samples" is no indium), or an element joined
// to a host with "+" ("Pd+LSM−YSZ").
const ADDED_IN_TEXT =
  /\b([A-Z][a-z]?)(?:O\d?)?-(?:impregnated|infiltrated|loaded|decorated|modified|coated|promoted)\b|\b([A-Z][a-z]?)(?:O\d?)?\+[A-Z][\w−–-]*/g;

/** The elements a question adds to its materials, each as a named material of its own (its symbol as the key). */
export function addedElements(body: string): { keys: string[]; written: string; family: null }[] {
  const out: { keys: string[]; written: string; family: null }[] = [];
  for (const m of body.matchAll(ADDED_ELEMENT)) {
    const symbol = isElementSymbol(m[1]) ? m[1] : chemicalNameToFormula(m[1]);
    if (symbol && isElementSymbol(symbol)) out.push({ keys: [`f:${symbol}`], written: m[0], family: null });
  }
  return out;
}

/**
 * Each element the question adds to a material against a paper: stated where the paper names it (symbol or name),
 * contradicted where it adds another element in that role and never this one ("Pd+LSM−YSZ" for a Ru-impregnated
 * cathode: another dopant), else absent.
 */
function addedElementVerdicts(index: RetrievalIndex, body: string, paperId: string): MaterialVerdict[] {
  const asked = addedElements(body);
  const paper = index.papers.get(paperId);
  if (!asked.length || !paper) return [];
  const texts = [paper.title ?? '', ...paper.paragraphIds.map((id) => index.paragraphs.get(id)?.text ?? '')];
  return asked.map((a): MaterialVerdict => {
    const symbol = a.keys[0].slice(2);
    const bySymbol = new RegExp(`\\b${symbol}\\b`);
    const name = elementNameOf(symbol);
    const base = { keys: a.keys, written: a.written };
    if (texts.some((t) => bySymbol.test(t) || (!!name && t.toLowerCase().includes(name)))) return { ...base, status: 'stated', stated: null };
    for (const t of texts)
      for (const m of t.matchAll(ADDED_IN_TEXT)) {
        const other = m[1] ?? m[2];
        if (other && other !== symbol && isElementSymbol(other)) return { ...base, status: 'contradicted', stated: m[0].trim() };
      }
    return { ...base, status: 'absent', stated: null };
  });
}
