/**
 * Other cuts of a product's name. Papers name a product with more or less around its formula ("Co3O4" / "Co3O4
 * nanowires/carbon cloth", "NiO" / "Co/Cu-modified NiO", "W0.2Er0.1Ru0.7O2" / "W0.2Er0.1Ru0.7O2−δ", "HEO800" / "HEO"),
 * and which cut a paper's own name is depends on how it writes it, not on a rule. The rules keep one cut; these are
 * the others, as candidates for a trained tagger (structurers/heads/material-tagger.ts) that may make one of them the
 * product and nothing else. Each variant says how it was cut (`kind`), a feature the tagger weighs.
 */

/** How a variant differs from the name the rules found. */
export type VariantKind = 'head' | 'head-support' | 'support' | 'termed' | 'delta' | 'modifier' | 'phase' | 'strip-morphology' | 'strip-label';

export interface ProductVariant {
  text: string;
  start: number;
  kind: VariantKind;
}

// What a product's name may go on with: a form or class noun after descriptive adjectives ("hexagonal nanoplates",
// "(oxy)hydroxide NS array", "metal–organic complex", "hollow cage").
const ADJECTIVE = String.raw`(?:hexagonal|porous|hollow|ultrathin|hierarchical|amorphous|crystalline|mesoporous|bimetallic|layered|double|ordered|hybrid|single|metal[–-]organic|core[–-]shell|self-supported|(?:nano|micro)porous)`;
const HEAD_NOUN = String.raw`(?:nano[a-z]+|micro[a-z]+|crystals?|frameworks?|arrays?|(?:\(oxy\))?(?:oxy)?hydroxides?|oxides?|alkoxides?|sulfides?|phosphides?|selenides?|precursors?|cages?|complex(?:es)?|films?|layers?|sheets?|wires?|rods?|particles?|spheres?|cubes?|plates?|flowers?|tubes?|powders?|composites?|(?:electro)?catalysts?|electrodes?|MOFs?|LDHs?|PBAs?|NSs?|NWs?|NPs?|NAs?|NRs?|NTs?|NCs?)`;
const HEAD = new RegExp(String.raw`^(?:\s(?:${ADJECTIVE}\s)*${HEAD_NOUN}(?![\w-])){1,3}`);
// What it grows on, written after it ("on NF", "/carbon cloth", "self-supported on Ni foam").
const SUPPORT_NAME = String.raw`(?:(?:Ni|nickel|Cu|copper|Ti|titanium|Fe|iron|stainless[- ]steel|carbon|graphite|graphene)\s(?:foams?|cloths?|papers?|foils?|meshe?s?|felts?|plates?|fib(?:er|re)s?)|[A-Z][A-Za-z]{0,3}(?![\w-]))`;
const SUPPORT = new RegExp(String.raw`^(?:\s(?:self-supported\s|grown\s|supported\s|deposited\s)?on\s(?:the\s|a\s)?|[/@])${SUPPORT_NAME}`);
// "Zirconium-based MOF termed UiO-66": the name it is given.
const TERMED = /^\s(?:termed|denoted(?: as)?|named|called|designated(?: as)?)\s[("“]?[A-Za-z0-9][\w()/@.+–-]*[A-Za-z0-9)]/;
// An oxygen deficiency written after the formula ("RuO2−δ", "LaCoO3-δ").
const DELTA = /^[-−–]δ/;
// What is written before it: a dopant or treatment ("Co/Cu-modified NiO", "Ni-doped iron oxide", "Fe/V co-doped"), a
// crystal phase or form ("α-MnO2", "m-CoVOx", "(U + S)-CoFe-MOF").
const MODIFIER =
  /(?:^|[\s(])((?:[A-Z][a-z]?(?:[/,–-][A-Z][a-z]?)*|[A-Z][\w]*(?:[-–][A-Z][\w]*)*)[-–\s](?:co-)?(?:modified|doped|loaded|decorated|coated|based)\s)$/;
const PHASE = /(?:^|[\s(])((?:[αβγδεθ]|[a-z]|\([A-Z][^()]{0,10}\))[-–])$/;
// What it may be named without: a trailing form abbreviation, its support, or a sample's label ("HEO800", "(1)").
const STRIP_MORPHOLOGY = /^(.{2,}?)[-–\s](?:LDHs?|NPs?|NSs?|NWs?|NAs?|NRs?|NCs?|MOFs?)$/;
const STRIP_LABEL = /^(.*[A-Za-z)])(?:\(\d+(?:\.\d+)?\)|-?\d{3,4}|[-–]\d+(?:\.\d+)?)$/;

/** The other cuts of the name `name` found at `start` of `text` (none equal to it). */
export function productVariants(text: string, name: string, start: number): ProductVariant[] {
  const end = start + name.length;
  const after = text.slice(end, end + 120);
  const before = text.slice(Math.max(0, start - 40), start);
  const out: ProductVariant[] = [];
  const add = (t: string, s: number, kind: VariantKind) => {
    // A modifier alone ("Zirconium-based" of "Zirconium-based MOF") is no cut of a name.
    if (t !== name && t.trim().length >= 2 && !/[-–](?:doped|based|derived|modified|loaded)$/.test(t)) out.push({ text: t, start: s, kind });
  };
  const head = HEAD.exec(after);
  if (head) {
    // A formula is named with its form only with its support too: "Fe2O3" of "Fe2O3 hollow nanotubes" is the product as
    // papers cut it, "Co3O4 nanowires/carbon cloth" is not "Co3O4"; a name without one ("Ni–Co", "Cobalt") needs its
    // class noun ("Ni–Co oxide", "Cobalt precursor").
    if (!/\d/.test(name)) add(name + head[0], start, 'head');
    const support = SUPPORT.exec(after.slice(head[0].length));
    if (support) add(name + head[0] + support[0], start, 'head-support');
  }
  const support = SUPPORT.exec(after);
  if (support) add(name + support[0], start, 'support');
  const termed = TERMED.exec(after);
  if (termed) add(name + termed[0], start, 'termed');
  const delta = DELTA.exec(after);
  if (delta) add(name + delta[0], start, 'delta');
  const modifier = MODIFIER.exec(before);
  if (modifier) add(modifier[1] + name, start - modifier[1].length, 'modifier');
  const phase = PHASE.exec(before);
  if (phase) add(phase[1] + name, start - phase[1].length, 'phase');
  for (const [re, kind] of [
    [STRIP_MORPHOLOGY, 'strip-morphology'],
    [STRIP_LABEL, 'strip-label'],
  ] as const) {
    const m = re.exec(name);
    if (m) add(m[1], start, kind);
  }
  return out;
}

/** Text of these rules, for the tagger's feature version. */
export const productVariantRulesSource = (): string =>
  [HEAD.source, SUPPORT.source, TERMED.source, DELTA.source, MODIFIER.source, PHASE.source, STRIP_MORPHOLOGY.source, STRIP_LABEL.source].join('\n');
