import { normaliseFormula } from './formula.ts';

/**
 * What kind of reagent a compound written in a synthesis paragraph is: a metal salt weighed in, an alkali salt, a
 * non-metal reagent (acid, base, oxidiser), an organic ligand or surfactant named in words, a linker acid. The rules of
 * the material tagger (entities.ts) and the features of the trained one read these.
 */
export const METALS =
  /(?:Li|Na|K|Mg|Ca|Sr|Ba|Sc|Ti|V|Cr|Mn|Fe|Co|Ni|Cu|Zn|Ga|Y|Zr|Nb|Mo|Ru|Rh|Pd|Ag|Cd|In|Sn|Sb|La|Ce|Pr|Nd|Sm|Eu|Gd|Hf|Ta|W|Re|Ir|Pt|Au|Bi|Al)/;
export const SALT_ANIONS = /(?:\(NO3\)|NO3|Cl\d?|\(SO4\)|SO4|\(CH3COO\)|CH3COO|\(OAc\)|OAc|\(acac\)|acac|MoO4|\(OH\)|CO3|\(C2H3O2\)|O4|Br)/;

const metalNames =
  'lithium|sodium|potassium|magnesium|calcium|strontium|barium|titanium|vanadium|chromium|manganese|iron|ferric|ferrous|cobalt|nickel|copper|cupric|zinc|gallium|yttrium|zirconium|niobium|molybdenum|ruthenium|rhodium|palladium|silver|cadmium|indium|tin|lanthanum|cerium|tungsten|iridium|platinum|gold|bismuth|aluminium|aluminum|ammonium|cobaltous|cerous|cerious|ceric|nickelous|manganous|cuprous|stannous|stannic|zirconyl|vanadyl|titanyl';
// Metal salts named in words: "nickel(II) nitrate hexahydrate", "cupric acetate hydrate", "titanium butoxide".
export const SALT_NAME = new RegExp(
  String.raw`\b(?:${metalNames})(?:\s?\((?:I{1,3}|IV|V|VI)\))?\s(?:nitrate|chloride|acetate|sulfate|sulphate|acetylacetonate|molybdate|hydroxide|carbonate|citrate|oxalate|bromide|fluoride|phosphate|tungstate|vanadate|metavanadate|acetylacetone|butoxide|isopropoxide|ethoxide|propoxide|ferricyanide|ferrocyanide|hexacyanoferrate|oxychloride|perchlorate|chromate|dichromate)(?:\s(?:mono|di|tri|tetra|penta|hexa|hepta|octa|nona)?hydrate)?\b`,
  'gi',
);
/** Hydrate dots as PDFs and publishers print them ("NiCl2•6H2O", "Co(NO3)2∙6H2O", "MnSO4‧5H2O") read as "·". */
export const PRINTED_DOTS = '∙•‧⋅';
export const HYDRATE_DOT = new RegExp(`[${PRINTED_DOTS}]`, 'g');
// Just after a hydrate's dot and count ("N2H4·" before "H2O"): what follows is part of that formula.
// Or printed with a period ("Ni(NO3)2.6H2O", "Ni(NO3)2.6 H2O").
export const AFTER_HYDRATE_DOT = new RegExp(`[·${PRINTED_DOTS}]\\d*$|[\\d)]\\.\\d+\\s?$`);

// Anions of the salts a synthesis starts from (nitrates, chlorides, acetates, acetylacetonates, sulfates, bromides):
// a compound with one is a reagent even where a phrase seems to name it as the product. Oxides, hydroxides,
// molybdates and carbonates are made as often as they are bought ("Ni(OH)2 nanosheets were synthesized").
export const REAGENT_ANIONS = /(?:\(NO3\)|NO3|Cl\d?|\(SO4\)|SO4|\(CH3COO\)|CH3COO|\(OAc\)|OAc|\(acac\)|acac|\(C2H3O2\)|Br)/;

/** A salt a synthesis starts from, whatever phrase it stands in: a hydrate or a metal with a reagent anion. */
export function isReagentSalt(s: string): boolean {
  const t = s.replace(HYDRATE_DOT, '·');
  return /·\d*H2O$/.test(t) || (METALS.test(t) && REAGENT_ANIONS.test(t.split('·')[0]));
}

/** A sodium or potassium salt with no other metal in it, written as a formula or as a name. */
export function isAlkaliSalt(t: string): boolean {
  if (/^(?:tri|di)?(?:sodium|potassium)\s(?!molybdate|tungstate|vanadate|ferri|ferro)/i.test(t)) return true;
  const formula = t.replace(HYDRATE_DOT, '·').split('·')[0];
  return /(?:Na|K)(?![a-z])/.test(formula) && !METALS.test(formula.replace(/(?:Na|K)(?![a-z])/g, ''));
}

// Reagents of non-metals (with at most an alkali or ammonium): acids, oxidisers, reducing agents, mineralisers
// (HNO3, H3PO4, (NH4)2S2O8, N2H4·H2O, NH4H2PO4, LiOH), not the gases of an atmosphere.
// The gases a recipe runs under or in, alone or mixed ("H2/Ar"): no reagent weighed in.
const GAS = /^(?:N2|O2|H2|Ar|He|CO2?|NH3|H2S|CH4|air)(?:\/(?:N2|O2|H2|Ar|He|air))?$/;
export const isGas = (t: string): boolean => GAS.test(t);

export function isNonMetalReagent(t: string): boolean {
  const formula = t.split('·')[0];
  // Hydrofluoric acid: the formula reader refuses "HF" (it could be hafnium written in capitals), an etchant and
  // mineraliser in hydrothermal recipes.
  if (formula === 'HF') return true;
  if (isGas(formula) || /^(?:H2O2?|HCl|C\d*)$/.test(formula) || !normaliseFormula(t)) return false;
  const elements = formula.match(/[A-Z][a-z]?/g) ?? [];
  // Hydrogen or ammonium in it: an acid, a base, a hydrazine; not a carbide, a silica or a halocarbon (SiC, CCl4).
  return new Set(elements).size >= 2 && /H/.test(formula) && !METALS.test(formula.replace(/(?:Li|Na|K)(?![a-z])/g, ''));
}

// Organic compounds named in words, by the endings chemists name them with; inorganic acids are not among them.
export const ORGANIC_NAME =
  /(?<![\w-])(?!(?:hydrochloric|nitric|sulfuric|sulphuric|phosphoric|hydrofluoric|perchloric|boric) acid)(?:(?:tri|di)?(?:sodium|potassium)\s)?(?:(?:\d+['′]*(?:[,:]\s?\d+['′]*)*-|[nNpom]-|trans-|cis-|tert-)*[a-z]*(?:[a-z]ic acid|[a-z]amine|imidazole|azine|pyridine|(?:pyridyl|phenyl|benzyl)(?:\s[a-z]+ic acid)?|phenanthroline|[a-z]diol|[a-z]thiol|phthalate|citrate|ascorbate|tartrate|benzoate|sulfonate|dicarboxylate|amino[a-z]*ane))(?:\s(?:mono|di|tri|tetra|penta|hexa)?hydrate)?(?![\w-])/g;

// Linker and ligand acids by their abbreviations, written with their protons: H2BDC, H3BTC, H4DOBDC, H4DOT, H4bta.
export const LINKER = /^H\d+(?:[A-Z]{2,}|[a-z]{2,4})$/;

export function isPrecursorFormula(raw: string): boolean {
  const s = raw.replace(HYDRATE_DOT, '·');
  const f = normaliseFormula(s);
  if (!f) return /^(?:[A-Z][a-z]?)+\(NO\)?\d?·?\d*H2O$/.test(s); // tolerate typos like Co(NO)3·6H2O
  return METALS.test(s) && (SALT_ANIONS.test(s.split('·')[0]) || /·\d*H2O$/.test(s));
}
/** Text of every rule here, for the extractor's version fingerprint. */
export const reagentRulesSource = (): string =>
  [
    METALS.source,
    SALT_ANIONS.source,
    SALT_NAME.source,
    REAGENT_ANIONS.source,
    HYDRATE_DOT.source,
    AFTER_HYDRATE_DOT.source,
    GAS.source,
    LINKER.source,
    ORGANIC_NAME.source,
  ].join('\n');
