import { escapeRegExp } from '../common/regexp.ts';
import { normaliseFormula, tidyFormula } from './formula.ts';
import {
  AFTER_HYDRATE_DOT,
  isAlkaliSalt,
  isNonMetalReagent,
  isPrecursorFormula,
  isReagentSalt,
  LINKER,
  METALS,
  ORGANIC_NAME,
  reagentRulesSource,
  SALT_NAME,
} from './reagents.ts';
import { lexiconEntries, materialKey } from './materials.ts';
import { ADDITIVES, SOLVENTS, SUBSTRATES } from './role-lexicon.ts';
import { productVariantRulesSource, productVariants, type VariantKind } from './product-variants.ts';
import { atmosphereGases, recipeStepRulesSource, recipeSteps } from './recipe-steps.ts';
import { balanced, productLike, unassignedRulesSource, unnamedProducts } from './unassigned-candidates.ts';

/**
 * Relational NER on synthesis paragraphs, offline: finds material mentions (formulas, lexicon names and
 * abbreviations, chemical names such as "cobalt(II) nitrate hexahydrate", product names such as "NiCo-LDH/NF")
 * and gives each a role relative to the paragraph's target: target, precursor, solvent, additive, substrate.
 * Mentions that only appear in substrate cleaning or product washing steps are not bound to the target and are
 * dropped (the substrate itself is kept).
 */

export const ENTITY_ROLES = ['target', 'precursor', 'solvent', 'additive', 'substrate'] as const;
export type EntityRole = (typeof ENTITY_ROLES)[number];

export interface EntityMention {
  role: EntityRole;
  text: string;
  start: number;
  end: number;
  /** Comparison key shared by all spellings (lexicon key, canonical formula or folded name). */
  key: string;
  /** Canonical formula when one is known. */
  formula: string | null;
}

/** Which rule found a mention ("unassigned": a product-like token no rule gave a role, for a trained tagger to judge). */
export type MentionSource = 'lexicon' | 'salt-name' | 'target-phrase' | 'token' | 'organic' | 'most-written' | 'unassigned' | 'variant';

/** A material mention as the rules read it, before one mention per role and material is kept: `role` null where no rule
 * gave it one. */
export interface MentionCandidate extends Omit<EntityMention, 'role'> {
  role: EntityRole | null;
  source: MentionSource;
  /** For another cut of a product's name (source "variant"): how it was cut. */
  variant?: VariantKind;
}

/** A trained reader of the candidates' roles (structurers/heads/material-tagger.ts): a role or null per candidate. */
export type MentionTagger = (text: string, candidates: MentionCandidate[]) => (EntityRole | null)[];

const SUPPORT_NAME =
  /(?<![\w-])(?:(?:Cu|Ni|Ti|Fe|Co|Zn|Al|Pt|Au|Mo|W|Ta|Ag|Co\/Ni|Ni\/Fe|copper|nickel|titanium|iron|cobalt|zinc|aluminium|aluminum|platinum|gold|molybdenum|tungsten|tantalum|silver|stainless[- ]steel)(?:\salloy)?\s(?:foils?|meshe?s?|plates?|sheets?|felts?|wires?|foams?|substrates?|wafers?))(?![\w-])/g;
// Lexicon aliases, longest first, matched on word boundaries (case-sensitive for abbreviations).
const aliasPatterns = lexiconEntries()
  .flatMap((e) => [e.key, e.label, ...e.aliases].map((a) => ({ alias: a, key: e.key })))
  .filter((a) => a.alias.length >= 2)
  .sort((a, b) => b.alias.length - a.alias.length);
const aliasRe = (list: typeof aliasPatterns, flags: string) => new RegExp(list.map((a) => `(?<![\\w-])${escapeRegExp(a.alias)}(?![\\w-])`).join('|'), flags);
// Names match in any case ("Nickel foam" at a sentence start); abbreviations only as written (GO vs go).
const isName = (alias: string) => /[a-z]{3,}/.test(alias);
const NAME_RE = aliasRe(
  aliasPatterns.filter((a) => isName(a.alias)),
  'gi',
);
const ABBR_RE = aliasRe(
  aliasPatterns.filter((a) => !isName(a.alias)),
  'g',
);
const ALIAS_CI = new Map(aliasPatterns.map((a) => [a.alias.toLowerCase(), a]));

// A product's name as papers write it: a formula or abbreviation, then morphology or phase abbreviations each with
// what it sits on or in ("Ag NWs@NiFe LDHs", "FeNi3–Fe3O4 NPs/MOF-CNT", "Co2Al1 LDH/CC"), after a dopant ("Ni-doped
// Co3O4") or a bracketed treatment ("(U + S)-CoFe-MOF"). A morphology only follows a space, so the repeated part cannot
// match the same text two ways (no runaway backtracking on long paragraphs).
// A name opens with a capital, or with a bracket before one ("(FeNi)–Tan"): "(initial pH" is no product.
const NAME_PART = String.raw`(?:[A-Z]|\((?=[A-Z]))[A-Za-z0-9()[\]·.,@/+–−\-]*[A-Za-z0-9)\]]`;
const MORPHOLOGY = '(?:LDHs?|MOFs?|NSs?|NWs?|NPs?|NAs?|NRs?|NTs?|NCs?|HPAs?|HMSs?|CH)';
const PRODUCT = String.raw`(?<t>(?:[A-Z][a-z]?(?:,\s?[A-Z][a-z]?)*-doped\s)?(?:\([A-Z][^()]{0,10}\)[-–])?${NAME_PART}(?:\s${MORPHOLOGY}(?![\w])(?:[/@]${NAME_PART})?)*)`;
const PRODUCT_ANYWHERE = new RegExp(PRODUCT, 'g');
const GENERIC_TARGET = /^(?:The|This|These|It|They|Then|All|Each|Samples?|Products?|Solution|Mixture|Precursors?)$/i;
const TARGET_PATTERNS = [
  new RegExp(String.raw`(?:denoted|named|labell?ed|marked|referred to|designated) as\s+["“]?` + PRODUCT, 'g'),
  new RegExp(
    String.raw`(?:^|[.!?]\s+|,\s+)(?:[Tt]he |Typically,? |Briefly,? |First(?:ly)?,? )?(?:as-prepared |pristine |pure )?` +
      PRODUCT +
      String.raw`(?:\s(?:nanosheets?|nanowires?|nanorods?|nanoplates?|nanoboxes|nanocubes?|nanoflowers?|nano-?arrays?|(?:micro|nano)?spheres?|nanoparticles?|particles?|arrays?|films?|catalysts?|electrocatalysts?|samples?|powders?|electrodes?|crystals?|precursors?|composites?|products?|supports?|layers?|coatings?|pellets?))?\s(?:is|are|was|were)\s(?:\w+ly\s)?(?:synthesi[sz]ed|prepared|fabricated|grown|obtained|deposited|made|achieved|produced|formed)`,
    'g',
  ),
  new RegExp(`(?:synthesis|preparation|fabrication|growth) of (?:the )?(?:hierarchical |porous |ultrathin )?` + PRODUCT, 'g'),
  new RegExp(
    `(?:to (?:obtain|get|yield|form|produce|give)|obtain(?:ing)?|yield(?:ing)?|giving|afford(?:ing)?|resulting in|[Tt]he (?:resulting|prepared|obtained|final|dried|as-(?:prepared|obtained|synthesi[sz]ed))(?: products?)?) (?:the )?(?:final )?(?:amorphous |crystalline )?` +
      PRODUCT,
    'g',
  ),
];

const ELEMENT_PRODUCT = new RegExp(
  String.raw`(?<![\w-])(${METALS.source}|Si|C)(?=\s(?:NPs?|nanoparticles?|nanocrystals?|nanowires?|NWs?|nanosheets?|foils?|films?|layers?|electrocatalysts?|catalysts?|clusters?)\b)`,
  'g',
);

const NAMED_PRODUCT =
  /(?<t>(?:[A-Za-z][\w()/-]*\s){0,3}(?:films?|layers?|coatings?|nanoparticles?|nanofibers?|nanofibres?|fibers?|fibres?|powders?|crystals?|nanosheets?|nanowires?|membranes?|electrodes?|composites?|ceramics?|pellets?))\s(?:was|were)\s(?:\w+ly\s)?(?:deposited|grown|synthesi[sz]ed|prepared|fabricated|obtained|made|electrospun|sintered|coated|produced)\b/g;
const GENERIC_WORDS =
  /^(?:the|a|an|this|these|those|all|each|both|then|thin|single|as-\w+|samples?|resulting|final|and|of|in|on|were|was|[A-Z][a-z]+ly|[a-z]+ly)$/i;

/** Formula-like or product-like tokens: start with a capital, contain digits, parentheses, · or joiners. */
const TOKEN_RE = /(?<![\w(])(?:\(?[A-Z][A-Za-z0-9()[\]·∙•‧⋅*.,@/+–−-]*[A-Za-z0-9)\]])(?![\w])/g;

/** A product-like mention no rule gave a role, for a trained tagger to judge. */
const unassignedAt = (t: string, start: number, formula = normaliseFormula(tidyFormula(t))?.formula ?? null): MentionCandidate => ({
  role: null,
  text: t,
  start,
  end: start + t.length,
  key: materialKey(t),
  formula,
  source: 'unassigned',
});

/** Whether [start, end) overlaps a mention other than `self`. */
const overlapsOther = (found: MentionCandidate[], self: MentionCandidate, start: number, end: number) =>
  found.some((o) => o !== self && start < o.end && end > o.start);

/** Role-labelled entities bound to the paragraph's target(s): the rules' roles, or those `tagger` gives their candidates. */
export function extractSynthesisEntities(text: string, tagger?: MentionTagger): EntityMention[] {
  const candidates = synthesisMentionCandidates(text);
  return mentionsWithRoles(candidates, tagger ? tagger(text, candidates) : candidates.map((c) => c.role));
}

/** The candidates given `roles` (null: none of the recipe's), one mention per (role, material): the first carries the offsets. */
export function mentionsWithRoles(candidates: MentionCandidate[], roles: (EntityRole | null)[]): EntityMention[] {
  const seen = new Set<string>();
  const out: EntityMention[] = [];
  for (const [i, { source: _, variant: __, ...c }] of candidates.entries()) {
    const role = roles[i];
    if (!role || seen.has(`${role}\u0000${c.key}`)) continue;
    seen.add(`${role}\u0000${c.key}`);
    out.push({ ...c, role });
  }
  return out;
}

/** Every material mention of a synthesis paragraph in text order, with the role the rules give it (or none). */
export function synthesisMentionCandidates(text: string): MentionCandidate[] {
  const found: MentionCandidate[] = [];
  const taken: [number, number][] = [];
  const overlaps = (s: number, e: number) => taken.some(([a, b]) => s < b && e > a);
  let source: MentionSource = 'lexicon';
  const add = (role: EntityRole, t: string, start: number, formula: string | null = null) => {
    const end = start + t.length;
    if (overlaps(start, end)) return;
    taken.push([start, end]);
    found.push({ role, text: t, start, end, key: materialKey(t), formula, source });
  };
  // Product-like tokens no rule gave a role ("FeNi@FeNi", "M-PCB", "MOF 3"): candidates for a trained tagger only.
  const unassigned: MentionCandidate[] = [];

  const steps = recipeSteps(text);
  const givesNoReagents = (pos: number) => steps.at(pos).noReagents;
  const gases = atmosphereGases(text);
  const inAtmosphere = (pos: number) => gases.some((g) => g.start <= pos && pos < g.end);
  const inWashing = (pos: number) => steps.at(pos).washing;

  // 1. Lexicon names and abbreviations.
  const aliasMatches = [...text.matchAll(NAME_RE), ...text.matchAll(ABBR_RE)].sort((a, b) => a.index! - b.index! || b[0].length - a[0].length);
  for (const m of aliasMatches) {
    const surface = m[0];
    const entry = aliasPatterns.find((a) => a.alias === surface) ?? ALIAS_CI.get(surface.toLowerCase());
    if (!entry) continue;
    // "H2O" in "N2H4·H2O" or "Na2S·9H2O" is the hydrate's water, part of that formula.
    if (AFTER_HYDRATE_DOT.test(text.slice(Math.max(0, m.index! - 5), m.index!))) continue;
    if (inAtmosphere(m.index!)) continue;
    let pos = m.index!;
    // Extend "deionized (DI) water"-style and "X (ABBR)" mentions to the whole phrase.
    let t = surface;
    const purified = /(?:de-?ionized|distilled|ultra-?pure)\s\((?:DI|D\.I\.|DIW)\)\s$|\bD\.I\.\s$/i.exec(text.slice(Math.max(0, pos - 24), pos));
    if (purified && /^water$/i.test(surface)) {
      t = purified[0] + t;
      pos -= purified[0].length;
    }
    const after = text.slice(pos + t.length);
    const paren = /^\s\(([A-Za-z0-9,-]{2,12})\)/.exec(after);
    if (paren) t = t + paren[0];
    const key = entry.key;
    const role: EntityRole | null = SUBSTRATES.has(key) ? 'substrate' : SOLVENTS.has(key) ? 'solvent' : ADDITIVES.has(key) ? 'additive' : null;
    if (!role) continue;
    if (role !== 'substrate' && (givesNoReagents(pos) || inWashing(pos))) continue;
    // A substrate written as part of a product ("Ni(OH)2/NF") belongs to the product token.
    if (role === 'substrate' && /[/@]$/.test(text.slice(Math.max(0, pos - 1), pos))) continue;
    if (role === 'substrate' && /^[/@]/.test(after)) continue;
    add(role, t, pos);
  }

  // 1b. Supports named by metal and form that the lexicon lacks ("Cu foil", "Co/Ni alloy foam", "titanium plate"),
  //     kept like the lexicon's substrates where they are cleaned first.
  for (const m of text.matchAll(SUPPORT_NAME)) add('substrate', m[0], m.index);

  // 2. Chemical names of salts ("nickel(II) nitrate hexahydrate").
  source = 'salt-name';
  for (const m of text.matchAll(SALT_NAME)) {
    if (givesNoReagents(m.index!) || inWashing(m.index!)) continue;
    add('precursor', m[0], m.index!);
  }

  // 3. Targets: the product the paragraph is about, from the phrases that name it.
  source = 'target-phrase';
  for (const re of TARGET_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const t = m.groups!.t.replace(/[.,;:]+$/, '');
      const pos = m.index! + m[0].indexOf(m.groups!.t);
      const key = materialKey(t);
      if (SOLVENTS.has(key) || ADDITIVES.has(key) || SUBSTRATES.has(key) || isReagentSalt(tidyFormula(t))) continue;
      // A word, a modifier, or the tail of a bracket ("(R = Pr, Er) were grown" is no product "Er)").
      if (GENERIC_TARGET.test(t) || /-(?:doped|based|derived|modified)$/.test(t) || !balanced(t)) continue;
      add('target', t, pos, normaliseFormula(tidyFormula(t))?.formula ?? null);
    }
  }

  // 4. Remaining formula tokens: metal salts are precursors; known reagents keep their lexicon role.
  source = 'token';
  for (const m of text.matchAll(TOKEN_RE)) {
    let t = m[0].replace(/[.,]+$/, '');
    if (t.startsWith('(') && !t.includes(')')) t = t.slice(1);
    // "Ni(NO3)2.6 H2O": a hydrate printed with a period and a space is one formula.
    const water = /[\d)]\.\d+$/.test(t) ? /^\sH2O(?![\w])/.exec(text.slice(m.index! + m[0].length)) : null;
    if (water) t += water[0];
    const pos = m.index! + (m[0].startsWith('(') && !m[0].includes(')') ? 1 : 0);
    if (t.length < 2) continue;
    if (givesNoReagents(pos)) continue;
    // "The CoSe2 was dried at 60 °C", "the Mn-Ni3S2/NF was taken out, rinsed …": what is washed is often the product,
    // for a trained tagger to judge; no reagent role is given in a washing step.
    if (inWashing(pos)) {
      if (productLike(t) && !SOLVENTS.has(materialKey(t))) unassigned.push(unassignedAt(t, pos));
      continue;
    }
    // "Ni2+ ions", "Fe3+": a species in solution, not a reagent weighed in.
    if (/^[+⁺]/.test(text.slice(pos + t.length))) continue;
    // "cobalt(II) chloride (CoCl2, anhydrous, 98%)", "cobalt acetate (Co(Ac)2)": the formula of the reagent just named
    // is that reagent.
    if (found.some((f) => f.end < pos && (/^\s?\($/.test(text.slice(f.end, pos)) || (t.startsWith('(') && /^\s?$/.test(text.slice(f.end, pos)))))) continue;
    // "annealed in NH3 atmosphere", "under flowing N2": the gas a step runs in.
    if (inAtmosphere(pos)) continue;
    const tidy = tidyFormula(t);
    const key = materialKey(t);
    if (ADDITIVES.has(key) || LINKER.test(t)) add('additive', t, pos, normaliseFormula(tidy)?.formula ?? null);
    else if (SOLVENTS.has(key)) add('solvent', t, pos, normaliseFormula(tidy)?.formula ?? null);
    else if (isPrecursorFormula(tidy)) add('precursor', t, pos, normaliseFormula(tidy)?.formula ?? null);
    else if (steps.at(pos).starting && METALS.test(tidy) && normaliseFormula(tidy)?.composition) {
      // Oxides, carbonates and metals weighed or mixed as starting materials (solid-state routes).
      add('precursor', t, pos, normaliseFormula(tidy)!.formula);
    } else if (steps.at(pos).starting && isNonMetalReagent(tidy)) add('additive', t, pos, normaliseFormula(tidy)?.formula ?? null);
    else if (productLike(t)) unassigned.push(unassignedAt(t, pos));
  }
  for (const m of [...unnamedProducts(text), ...[...text.matchAll(PRODUCT_ANYWHERE)].filter((x) => /\s/.test(x[0]))])
    unassigned.push(unassignedAt(m[0], m.index, null));
  // 4b. Organic reagents named in words ("tannic acid", "n-butylamine", "trisodium citrate dihydrate"): ligands,
  //     surfactants, reducing and structure-directing agents, which bring no metal to the product.
  source = 'organic';
  for (const m of text.matchAll(ORGANIC_NAME)) {
    if (givesNoReagents(m.index) || inWashing(m.index)) continue;
    add('additive', m[0], m.index);
  }
  // 5. No phrase named the product: the material written most often in the sentences that make something
  //    ("were synthesized", "was deposited") is the paragraph's target. Plain element symbols count only as
  //    nanostructures, foils or films ("Pt NPs", "Ir electrocatalysts"), never alone ("Co" may be a verb-less
  //    abbreviation). This keeps synthesis paragraphs about un-named products from having no entities at all.
  if (!found.some((e) => e.role === 'target')) {
    const counts = new Map<string, { n: number; first: { t: string; pos: number; formula: string | null } }>();
    const consider = (t: string, pos: number, formula: string | null) => {
      if (givesNoReagents(pos) || inWashing(pos) || !steps.at(pos).targetCue) return;
      const key = materialKey(t);
      if (SOLVENTS.has(key) || ADDITIVES.has(key) || SUBSTRATES.has(key) || isPrecursorFormula(tidyFormula(t))) return;
      const c = counts.get(key) ?? { n: 0, first: { t, pos, formula } };
      c.n++;
      counts.set(key, c);
    };
    for (const m of text.matchAll(TOKEN_RE)) {
      const t = m[0].replace(/[.,]+$/, '');
      const f = normaliseFormula(tidyFormula(t));
      if (f) consider(t, m.index!, f.formula);
    }
    for (const m of text.matchAll(ELEMENT_PRODUCT)) consider(m[1], m.index!, m[1]);
    if (counts.size === 0) {
      // Products named in words ("Halide-doped tin oxide films were grown", "The A-CIGS layer was deposited").
      for (const m of text.matchAll(NAMED_PRODUCT)) {
        const phrase = m.groups!.t;
        const words = phrase.split(' ').filter((w) => !GENERIC_WORDS.test(w));
        if (words.length === 0) continue;
        const t = phrase.slice(phrase.indexOf(words[0]));
        const pos = m.index! + m[0].indexOf(phrase) + phrase.indexOf(words[0]);
        if (!givesNoReagents(pos) && !inWashing(pos)) consider(t, pos, null);
      }
    }
    const best = [...counts.values()].sort((a, b) => b.n - a.n || a.first.pos - b.first.pos)[0];
    source = 'most-written';
    if (best) add('target', best.first.t, best.first.pos, best.first.formula);
  }
  // A product grown on its support is named with it where the paragraph writes that name ("NiSe nanorods were
  // grown …; the NiSe/NF was then …"): the target is the supported product.
  for (const e of found) {
    if (e.role !== 'target') continue;
    const supported = new RegExp(`(?<![\\w-])${escapeRegExp(e.text)}[/@](?:${[...SUBSTRATES, 'Ti'].join('|')})(?![\\w-])`).exec(text);
    if (supported && !overlapsOther(found, e, supported.index, supported.index + supported[0].length)) {
      Object.assign(e, { text: supported[0], start: supported.index, end: supported.index + supported[0].length, key: materialKey(supported[0]) });
    }
  }
  found.sort((a, b) => a.start - b.start);
  // A compound the paragraph makes is its target wherever else it stands ("Co3O4 was prepared …; the Co3O4 powder was
  // then dispersed …" uses its own product in the next step): not also a precursor.
  const made = new Set(found.filter((e) => e.role === 'target').map((e) => e.key));
  // A salt of sodium or potassium with no other metal (NaCl, Na2SO4, "sodium sulfate", CH3COONa) brings nothing to a
  // product without those metals: it is an additive (a structure director, a mineraliser), unless the target has
  // sodium or potassium in it. Na2MoO4 or KMnO4 bring their other metal and stay precursors.
  const alkaliTarget = found.some((e) => e.role === 'target' && /(?:Na|K)(?![a-z])/.test(e.formula ?? e.text));
  for (const e of found) if (e.role === 'precursor' && !alkaliTarget && isAlkaliSalt(e.text)) e.role = 'additive';
  for (const e of found) if (e.role === 'precursor' && made.has(e.key)) e.role = null;
  // The longest first: "MNFO NS/IF" rather than "MNFO".
  for (const u of unassigned.sort((a, b) => b.end - b.start - (a.end - a.start)))
    if (!overlaps(u.start, u.end) && !found.some((f) => f.role && f.key === u.key)) {
      taken.push([u.start, u.end]);
      found.push(u);
    }
  // Other cuts of a product's name (product-variants.ts), for a trained tagger only: they overlap the cut found.
  const keys = new Set(found.map((f) => f.key));
  for (const c of found.filter((f) => f.role === null || f.role === 'target' || f.role === 'precursor'))
    for (const v of productVariants(text, c.text, c.start)) {
      const u = unassignedAt(v.text, v.start);
      if (keys.has(u.key)) continue;
      keys.add(u.key);
      found.push({ ...u, source: 'variant', variant: v.kind });
    }
  return found.sort((a, b) => a.start - b.start);
}

/** Text of every rule here, for the extractor's version fingerprint. */
export const entityRulesSource = (): string =>
  [
    ...SOLVENTS,
    ...SUBSTRATES,
    ...ADDITIVES,
    reagentRulesSource(),
    recipeStepRulesSource(),
    SUPPORT_NAME.source,
    TOKEN_RE.source,
    ELEMENT_PRODUCT.source,
    NAMED_PRODUCT.source,
    GENERIC_WORDS.source,
    GENERIC_TARGET.source,
    ...TARGET_PATTERNS.map((r) => r.source),
  ].join('\n');

/** Text of the rules that find the candidates no rule gives a role: with entityRulesSource, what a trained tagger reads. */
export const candidateRulesSource = (): string => [entityRulesSource(), unassignedRulesSource(), productVariantRulesSource()].join('\n');
