import { normaliseFormula } from './formula.ts';

/**
 * Systematic and common names of simple inorganic compounds → formulas ("strontium carbonate" → SrCO3,
 * "iron(III) chloride hexahydrate" → FeCl3·6H2O, "tantalum pentoxide" → Ta2O5, "hydrochloric acid" → HCl,
 * "hematite" → Fe2O3, "arsenic" → As), so a question that writes a precursor out meets a paper that gives its
 * formula. Only names built from the tables below are converted; anything else returns null (no guessing).
 * Organic names are left to the materials lexicon.
 */

const ELEMENT_NAMES: Record<string, string> = {
  hydrogen: 'H',
  lithium: 'Li',
  beryllium: 'Be',
  boron: 'B',
  carbon: 'C',
  nitrogen: 'N',
  oxygen: 'O',
  fluorine: 'F',
  sodium: 'Na',
  magnesium: 'Mg',
  aluminium: 'Al',
  aluminum: 'Al',
  silicon: 'Si',
  phosphorus: 'P',
  sulfur: 'S',
  sulphur: 'S',
  chlorine: 'Cl',
  potassium: 'K',
  calcium: 'Ca',
  scandium: 'Sc',
  titanium: 'Ti',
  vanadium: 'V',
  chromium: 'Cr',
  manganese: 'Mn',
  iron: 'Fe',
  cobalt: 'Co',
  nickel: 'Ni',
  copper: 'Cu',
  zinc: 'Zn',
  gallium: 'Ga',
  germanium: 'Ge',
  arsenic: 'As',
  selenium: 'Se',
  bromine: 'Br',
  rubidium: 'Rb',
  strontium: 'Sr',
  yttrium: 'Y',
  zirconium: 'Zr',
  niobium: 'Nb',
  molybdenum: 'Mo',
  ruthenium: 'Ru',
  rhodium: 'Rh',
  palladium: 'Pd',
  silver: 'Ag',
  cadmium: 'Cd',
  indium: 'In',
  tin: 'Sn',
  antimony: 'Sb',
  tellurium: 'Te',
  iodine: 'I',
  cesium: 'Cs',
  caesium: 'Cs',
  barium: 'Ba',
  lanthanum: 'La',
  cerium: 'Ce',
  praseodymium: 'Pr',
  neodymium: 'Nd',
  samarium: 'Sm',
  europium: 'Eu',
  gadolinium: 'Gd',
  terbium: 'Tb',
  dysprosium: 'Dy',
  holmium: 'Ho',
  erbium: 'Er',
  thulium: 'Tm',
  ytterbium: 'Yb',
  lutetium: 'Lu',
  hafnium: 'Hf',
  tantalum: 'Ta',
  tungsten: 'W',
  rhenium: 'Re',
  osmium: 'Os',
  iridium: 'Ir',
  platinum: 'Pt',
  gold: 'Au',
  mercury: 'Hg',
  thallium: 'Tl',
  lead: 'Pb',
  bismuth: 'Bi',
  thorium: 'Th',
  uranium: 'U',
};

/** An element's name from its symbol ("Ru" → "ruthenium"), or null. */
export function elementNameOf(symbol: string): string | null {
  for (const [name, sym] of Object.entries(ELEMENT_NAMES)) if (sym === symbol) return name;
  return null;
}

/** Old-style cation names with their oxidation state. */
const CATION_ALIASES: Record<string, [string, number]> = {
  ferric: ['Fe', 3],
  ferrous: ['Fe', 2],
  cupric: ['Cu', 2],
  cuprous: ['Cu', 1],
  cobaltous: ['Co', 2],
  stannic: ['Sn', 4],
  stannous: ['Sn', 2],
  manganous: ['Mn', 2],
  ammonium: ['NH4', 1],
};

/** Usual oxidation state of a metal in its simple salts and oxides, when the name gives none. */
const USUAL_CHARGE: Record<string, number> = {
  H: 1,
  Li: 1,
  Na: 1,
  K: 1,
  Rb: 1,
  Cs: 1,
  Ag: 1,
  NH4: 1,
  Be: 2,
  Mg: 2,
  Ca: 2,
  Sr: 2,
  Ba: 2,
  Zn: 2,
  Cd: 2,
  Ni: 2,
  Co: 2,
  Mn: 2,
  Cu: 2,
  Pb: 2,
  Hg: 2,
  Sn: 4,
  Fe: 3,
  Al: 3,
  Ga: 3,
  In: 3,
  Y: 3,
  Sc: 3,
  La: 3,
  Ce: 3,
  Pr: 3,
  Nd: 3,
  Sm: 3,
  Eu: 3,
  Gd: 3,
  Tb: 3,
  Dy: 3,
  Ho: 3,
  Er: 3,
  Tm: 3,
  Yb: 3,
  Lu: 3,
  Bi: 3,
  Cr: 3,
  B: 3,
  Ti: 4,
  Zr: 4,
  Hf: 4,
  Si: 4,
  Ge: 4,
  Nb: 5,
  Ta: 5,
  V: 5,
  Mo: 6,
  W: 6,
};

/** Anion name → [formula, charge (0: one per cation, as perovskite names mean), needs parentheses when multiplied]. */
const ANIONS: Record<string, [string, number, boolean]> = {
  oxide: ['O', 2, false],
  hydroxide: ['OH', 1, true],
  carbonate: ['CO3', 2, true],
  nitrate: ['NO3', 1, true],
  nitrite: ['NO2', 1, true],
  chloride: ['Cl', 1, false],
  fluoride: ['F', 1, false],
  bromide: ['Br', 1, false],
  iodide: ['I', 1, false],
  sulfate: ['SO4', 2, true],
  sulphate: ['SO4', 2, true],
  sulfide: ['S', 2, false],
  sulphide: ['S', 2, false],
  phosphate: ['PO4', 3, true],
  acetate: ['CH3COO', 1, true],
  oxalate: ['C2O4', 2, true],
  nitride: ['N', 3, false],
  carbide: ['C', 4, false],
  selenide: ['Se', 2, false],
  telluride: ['Te', 2, false],
  perchlorate: ['ClO4', 1, true],
  permanganate: ['MnO4', 1, true],
  chromate: ['CrO4', 2, true],
  molybdate: ['MoO4', 2, true],
  tungstate: ['WO4', 2, true],
  titanate: ['TiO3', 2, false],
  // Perovskite names: one A cation per BO3 whatever its charge ("lanthanum manganite" LaMnO3, "barium cerate" BaCeO3).
  manganite: ['MnO3', 0, false],
  cobaltite: ['CoO3', 0, false],
  chromite: ['CrO3', 0, false],
  gallate: ['GaO3', 0, false],
  cerate: ['CeO3', 0, false],
  zirconate: ['ZrO3', 0, false],
  niobate: ['NbO3', 0, false],
  tantalate: ['TaO3', 0, false],
  silicate: ['SiO3', 2, false],
  acetylacetonate: ['C5H7O2', 1, true],
  citrate: ['C6H5O7', 3, true],
  formate: ['HCOO', 1, true],
  borohydride: ['BH4', 1, false],
  hypophosphite: ['H2PO2', 1, false],
};

const MULTIPLIERS: Record<string, number> = {
  mono: 1,
  mon: 1,
  di: 2,
  tri: 3,
  tetra: 4,
  tetr: 4,
  penta: 5,
  pent: 5,
  hexa: 6,
  hex: 6,
  hepta: 7,
  octa: 8,
  nona: 9,
  deca: 10,
  sesqui: 1.5,
};
const HYDRATES: Record<string, number> = {
  monohydrate: 1,
  dihydrate: 2,
  trihydrate: 3,
  tetrahydrate: 4,
  pentahydrate: 5,
  hexahydrate: 6,
  heptahydrate: 7,
  octahydrate: 8,
  nonahydrate: 9,
  decahydrate: 10,
};

const COMMON: Record<string, string> = {
  'hydrochloric acid': 'HCl',
  'nitric acid': 'HNO3',
  'sulfuric acid': 'H2SO4',
  'sulphuric acid': 'H2SO4',
  'phosphoric acid': 'H3PO4',
  'hydrofluoric acid': 'HF',
  'acetic acid': 'CH3COOH',
  'oxalic acid': 'H2C2O4',
  'hydrogen peroxide': 'H2O2',
  ammonia: 'NH3',
  water: 'H2O',
  hematite: 'Fe2O3',
  haematite: 'Fe2O3',
  magnetite: 'Fe3O4',
  rutile: 'TiO2',
  anatase: 'TiO2',
  corundum: 'Al2O3',
  quartz: 'SiO2',
  silica: 'SiO2',
  alumina: 'Al2O3',
  titania: 'TiO2',
  zirconia: 'ZrO2',
  ceria: 'CeO2',
  magnesia: 'MgO',
  calcite: 'CaCO3',
  graphite: 'C',
  wustite: 'FeO',
  periclase: 'MgO',
  'carbon dioxide': 'CO2',
  'carbon monoxide': 'CO',
};

/** Each element's name by its symbol (the first spelling the table gives: "aluminum", "sulfur", "cesium"). */
export const elementNamesBySymbol = (): ReadonlyMap<string, string> => {
  const out = new Map<string, string>();
  for (const [name, symbol] of Object.entries(ELEMENT_NAMES)) if (!out.has(symbol)) out.set(symbol, name);
  return out;
};

const ROMAN: Record<string, number> = { I: 1, II: 2, III: 3, IV: 4, V: 5, VI: 6, VII: 7 };

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const sub = (n: number) => (n === 1 ? '' : String(n));

/** The formula for a name, or null when the name is not built from the tables above. */
export function chemicalNameToFormula(name: string): string | null {
  const n = name
    .trim()
    .toLowerCase()
    .replace(/[\u2010-\u2013\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/\bsulph/g, 'sulf')
    .replace(/aluminium/g, 'aluminum');
  if (COMMON[n]) return COMMON[n];
  if (ELEMENT_NAMES[n]) return ELEMENT_NAMES[n];
  const m = /^([a-z]+)(?:\s?\(([ivx]+)\))? (?:(mono|mon|di|tri|tetra|tetr|penta|pent|hexa|hex|sesqui)(?=[a-z]))?([a-z]+)(?: ([a-z]+hydrate))?$/.exec(n);
  if (!m) return null;
  const [, cationName, roman, prefix, anionName, hydrate] = m;
  const alias = CATION_ALIASES[cationName];
  const cation = alias ? alias[0] : ELEMENT_NAMES[cationName];
  const anion = ANIONS[anionName === 'xide' ? 'oxide' : anionName];
  if (!cation || !anion) return null;
  let formula: string;
  if (anion[1] === 0) formula = `${cation}${anion[0]}`;
  else if (prefix) {
    // Prefixed names count the anions on one cation ("titanium dioxide" TiO2, "molybdenum trioxide" MoO3);
    // "pentoxide" and "sesquioxide" are the conventional short forms of M2O5 and M2O3.
    const k = MULTIPLIERS[prefix];
    const group = anion[2] && k > 1 ? `(${anion[0]})` : anion[0];
    if (k === 1.5) formula = `${cation}2${anion[0]}3`;
    else if (k === 5 && anion[0] === 'O') formula = `${cation}2O5`;
    else formula = `${cation}${group}${sub(k)}`;
  } else {
    const charge = roman ? ROMAN[roman.toUpperCase()] : alias ? alias[1] : USUAL_CHARGE[cation];
    if (!charge) return null;
    const g = gcd(charge, anion[1]);
    const nCation = anion[1] / g;
    const nAnion = charge / g;
    const cationPart = cation === 'NH4' && nCation > 1 ? `(NH4)${nCation}` : `${cation}${sub(nCation)}`;
    const anionPart = nAnion > 1 && anion[2] ? `(${anion[0]})${nAnion}` : `${anion[0]}${sub(nAnion)}`;
    formula = cationPart + anionPart;
  }
  if (hydrate) {
    const w = HYDRATES[hydrate];
    if (!w) return null;
    formula += `·${sub(w)}H2O`;
  }
  return normaliseFormula(formula) ? formula : null;
}

const namePattern = (() => {
  const cations = [...Object.keys(ELEMENT_NAMES), ...Object.keys(CATION_ALIASES)].sort((a, b) => b.length - a.length).join('|');
  const anions = Object.keys(ANIONS)
    .sort((a, b) => b.length - a.length)
    .join('|');
  const prefixes = 'mono|mon|di|tri|tetra|tetr|penta|pent|hexa|hex|sesqui';
  const hydrates = Object.keys(HYDRATES).join('|');
  const common = Object.keys(COMMON)
    .sort((a, b) => b.length - a.length)
    .join('|');
  return new RegExp(
    String.raw`\b(?:(?:${cations})(?:\s?\((?:I{1,3}|IV|V|VI|VII|i{1,3}|iv|v|vi|vii)\))?\s(?:(?:${prefixes})?(?:${anions}|xide))(?:\s(?:${hydrates}))?|${common}|${Object.keys(ELEMENT_NAMES).join('|')})\b`,
    'gi',
  );
})();

// "lead" is also a verb, and causal questions and sentences use it: "does Sr doping lead to …", "which can lead
// to cracking". The verb is followed by to/into or preceded by an auxiliary; lead the metal ("lead oxide",
// "lead-free", "lead halide perovskites") is neither.
const LEAD_VERB_AFTER = /^\s+(?:to|into)\b/i;
const LEAD_VERB_BEFORE = /\b(?:does|do|did|can|could|may|might|will|would|should|must|to|not|also)\s+$/i;

/** Text of the name rules, for the offline extractor's version stamp (a change redoes stored structures). */
export const chemicalNameRulesSource = (): string => [namePattern.source, LEAD_VERB_AFTER.source, LEAD_VERB_BEFORE.source].join('\n');

/** Every convertible chemical name in a text, with its formula and offsets. */
export function findChemicalNames(text: string): { text: string; start: number; end: number; formula: string }[] {
  const out: { text: string; start: number; end: number; formula: string }[] = [];
  for (const m of text.matchAll(namePattern)) {
    if (
      /^lead$/i.test(m[0]) &&
      (LEAD_VERB_AFTER.test(text.slice(m.index! + 4, m.index! + 12)) || LEAD_VERB_BEFORE.test(text.slice(Math.max(0, m.index! - 12), m.index!)))
    )
      continue;
    const formula = chemicalNameToFormula(m[0]);
    if (formula) out.push({ text: m[0], start: m.index!, end: m.index! + m[0].length, formula });
  }
  return out;
}
