import { normaliseFormula, tidyFormula } from './formula.ts';

/**
 * Material mentions → one canonical key, so that "YSZ", "yttria-stabilized zirconia" and "Y2O3-stabilized ZrO2"
 * meet, and "potassium permanganate" meets "KMnO4". A formula is given only where the material has one (a
 * class like LDH has none); unknown names stay names. The surface form is always kept by callers.
 */

interface LexiconEntry {
  key: string;
  /** Canonical formula (general composition for doped families), or null for classes of materials. */
  formula: string | null;
  label: string;
  aliases: string[];
}

// Curated from common usage in SOFC, electrocatalysis, battery and photocatalysis writing; extend freely.
const lexicon: LexiconEntry[] = [
  {
    key: 'YSZ',
    formula: 'Zr1-xYxO2-δ',
    label: 'yttria-stabilized zirconia',
    aliases: [
      'YSZ',
      '8YSZ',
      '3YSZ',
      'yttria-stabilized zirconia',
      'yttria stabilized zirconia',
      'Y2O3-stabilized ZrO2',
      'yttria-stabilized ZrO2',
      'yttrium-stabilized zirconia',
      'yttria-doped zirconia',
    ],
  },
  {
    key: 'ScSZ',
    formula: 'Zr1-xScxO2-δ',
    label: 'scandia-stabilized zirconia',
    aliases: ['ScSZ', 'scandia-stabilized zirconia', 'Sc2O3-stabilized ZrO2', 'scandia stabilized zirconia'],
  },
  {
    key: 'GDC',
    formula: 'Ce1-xGdxO2-δ',
    label: 'gadolinium-doped ceria',
    aliases: ['GDC', 'CGO', 'gadolinium-doped ceria', 'gadolinia-doped ceria', 'Gd-doped ceria', 'Gd-doped CeO2', 'gadolinium doped ceria'],
  },
  {
    key: 'SDC',
    formula: 'Ce1-xSmxO2-δ',
    label: 'samarium-doped ceria',
    aliases: ['SDC', 'samarium-doped ceria', 'samaria-doped ceria', 'Sm-doped ceria', 'Sm-doped CeO2', 'samarium doped ceria'],
  },
  {
    key: 'LSM',
    formula: 'La1-xSrxMnO3-δ',
    label: 'strontium-doped lanthanum manganite',
    aliases: ['LSM', 'lanthanum strontium manganite', 'strontium-doped lanthanum manganite', 'Sr-doped LaMnO3'],
  },
  {
    key: 'LSCF',
    formula: 'La1-xSrxCo1-yFeyO3-δ',
    label: 'lanthanum strontium cobalt ferrite',
    aliases: ['LSCF', 'lanthanum strontium cobalt ferrite', 'lanthanum strontium cobalt iron oxide'],
  },
  { key: 'LSC', formula: 'La1-xSrxCoO3-δ', label: 'lanthanum strontium cobaltite', aliases: ['LSC', 'lanthanum strontium cobaltite'] },
  {
    key: 'LSGM',
    formula: 'La1-xSrxGa1-yMgyO3-δ',
    label: 'strontium- and magnesium-doped lanthanum gallate',
    aliases: ['LSGM', 'lanthanum strontium gallium magnesium oxide', 'strontium and magnesium doped lanthanum gallate'],
  },
  {
    key: 'BSCF',
    formula: 'Ba1-xSrxCo1-yFeyO3-δ',
    label: 'barium strontium cobalt ferrite',
    aliases: ['BSCF', 'barium strontium cobalt ferrite', 'barium strontium cobalt iron oxide'],
  },
  {
    key: 'BZCY',
    formula: 'BaZr1-x-y-zCexYyO3-δ',
    label: 'yttrium-doped barium zirconate-cerate',
    aliases: ['BZCY', 'BCZY', 'yttrium-doped barium zirconate cerate', 'barium zirconate cerate'],
  },
  { key: 'BZY', formula: 'BaZr1-xYxO3-δ', label: 'yttrium-doped barium zirconate', aliases: ['BZY', 'yttrium-doped barium zirconate', 'Y-doped BaZrO3'] },
  { key: 'LDH', formula: null, label: 'layered double hydroxide', aliases: ['LDH', 'LDHs', 'layered double hydroxide', 'layered double hydroxides'] },
  {
    key: 'NiFe-LDH',
    formula: null,
    label: 'nickel–iron layered double hydroxide',
    aliases: ['NiFe LDH', 'NiFe-LDH', 'nickel iron layered double hydroxide', 'NiFe layered double hydroxide'],
  },
  { key: 'NF', formula: 'Ni', label: 'nickel foam', aliases: ['NF', 'NFs', 'nickel foam', 'nickel foams', 'Ni foam', 'Ni foams'] },
  { key: 'CC', formula: 'C', label: 'carbon cloth', aliases: ['CC', 'carbon cloth', 'hydrophilic carbon cloth'] },
  { key: 'FTO', formula: 'SnO2:F', label: 'fluorine-doped tin oxide', aliases: ['FTO', 'fluorine-doped tin oxide', 'F-doped SnO2'] },
  { key: 'ITO', formula: 'In2O3:Sn', label: 'indium tin oxide', aliases: ['ITO', 'indium tin oxide', 'tin-doped indium oxide'] },
  { key: 'rGO', formula: null, label: 'reduced graphene oxide', aliases: ['rGO', 'RGO', 'reduced graphene oxide'] },
  { key: 'GO', formula: null, label: 'graphene oxide', aliases: ['GO', 'graphene oxide'] },
  { key: 'CNT', formula: null, label: 'carbon nanotubes', aliases: ['CNT', 'CNTs', 'carbon nanotube', 'carbon nanotubes'] },
  { key: 'g-C3N4', formula: 'C3N4', label: 'graphitic carbon nitride', aliases: ['g-C3N4', 'graphitic carbon nitride', 'gCN'] },
  { key: 'PTFE', formula: null, label: 'polytetrafluoroethylene', aliases: ['PTFE', 'polytetrafluoroethylene', 'Teflon'] },
  { key: 'PVDF', formula: null, label: 'polyvinylidene fluoride', aliases: ['PVDF', 'polyvinylidene fluoride', 'poly(vinylidene fluoride)'] },
  { key: 'PVP', formula: null, label: 'polyvinylpyrrolidone', aliases: ['PVP', 'polyvinylpyrrolidone'] },
  {
    key: 'CTAB',
    formula: 'C19H42BrN',
    label: 'cetyltrimethylammonium bromide',
    aliases: ['CTAB', 'cetyltrimethylammonium bromide', 'hexadecyltrimethylammonium bromide'],
  },
  {
    key: 'DMF',
    formula: 'C3H7NO',
    label: 'N,N-dimethylformamide',
    aliases: ['DMF', 'N,N-dimethylformamide', 'dimethylformamide', 'dimethyl formamide', 'N,N-dimethyl formamide'],
  },
  {
    key: 'EtOH',
    formula: 'C2H6O',
    label: 'ethanol',
    aliases: ['ethanol', 'EtOH', 'ethyl alcohol', 'absolute ethanol', 'anhydrous ethanol', 'ethanolic solution'],
  },
  { key: 'MeOH', formula: 'CH4O', label: 'methanol', aliases: ['methanol', 'MeOH'] },
  {
    key: 'H2O',
    formula: 'H2O',
    label: 'water',
    aliases: [
      'water',
      'deionized water',
      'DI water',
      'DI-water',
      'DIW',
      'distilled water',
      'de-ionized water',
      'ultrapure water',
      'ultra-pure water',
      'Millipore water',
      // Ultrapure water by its purifier's name, with or without "water" after it.
      'Milli-Q water',
      'MilliQ water',
      'Milli-Q',
      'dihydrogen oxide',
      'double-distilled water',
      'aqueous solution',
    ],
  },
  { key: 'IPA', formula: 'C3H8O', label: 'isopropanol', aliases: ['IPA', 'isopropanol', 'isopropyl alcohol', '2-propanol'] },
  { key: 'DMAc', formula: 'C4H9NO', label: 'N,N-dimethylacetamide', aliases: ['DMAc', 'DMA', 'N,N-dimethylacetamide', 'dimethylacetamide'] },
  { key: 'DMSO', formula: 'C2H6OS', label: 'dimethyl sulfoxide', aliases: ['DMSO', 'dimethyl sulfoxide'] },
  { key: 'MeCN', formula: 'C2H3N', label: 'acetonitrile', aliases: ['acetonitrile', 'MeCN'] },
  { key: 'acetone', formula: 'C3H6O', label: 'acetone', aliases: ['acetone'] },
  { key: 'glycerol', formula: 'C3H8O3', label: 'glycerol', aliases: ['glycerol', 'glycerine'] },
  { key: 'CFP', formula: 'C', label: 'carbon fiber paper', aliases: ['CFP', 'carbon fiber paper', 'carbon fibre paper'] },
  { key: 'CP', formula: 'C', label: 'carbon paper', aliases: ['CP', 'carbon paper', 'Toray paper'] },
  { key: 'CF', formula: 'C', label: 'carbon fiber', aliases: ['carbon fiber', 'carbon fibre', 'carbon fiber cloth'] },
  { key: 'CuF', formula: 'Cu', label: 'copper foam', aliases: ['copper foam', 'Cu foam'] },
  { key: 'IF', formula: 'Fe', label: 'iron foam', aliases: ['iron foam', 'Fe foam', 'FF'] },
  { key: 'TiM', formula: 'Ti', label: 'titanium mesh', aliases: ['Ti mesh', 'titanium mesh'] },
  { key: 'TiF', formula: 'Ti', label: 'titanium foil', aliases: ['Ti foil', 'titanium foil', 'Ti plate'] },
  { key: 'SSM', formula: null, label: 'stainless steel mesh', aliases: ['stainless steel mesh', 'SS mesh', 'SSM'] },
  { key: 'TAA', formula: 'C2H5NS', label: 'thioacetamide', aliases: ['TAA', 'thioacetamide'] },
  { key: 'H2BDC', formula: 'C8H6O4', label: 'terephthalic acid', aliases: ['terephthalic acid', 'H2BDC', 'BDC', '1,4-BDC', 'benzene-1,4-dicarboxylic acid'] },
  { key: 'H3BTC', formula: 'C9H6O6', label: 'trimesic acid', aliases: ['trimesic acid', 'H3BTC', 'BTC', '1,3,5-benzenetricarboxylic acid'] },
  { key: '2-MeIm', formula: 'C4H6N2', label: '2-methylimidazole', aliases: ['2-methylimidazole', '2-MeIm', '2-MIM', 'Hmim'] },
  { key: 'SDS', formula: 'C12H25NaO4S', label: 'sodium dodecyl sulfate', aliases: ['SDS', 'sodium dodecyl sulfate', 'sodium dodecylsulfate'] },
  { key: 'NH3', formula: 'NH3', label: 'ammonia', aliases: ['ammonia', 'ammonium hydroxide', 'ammonia solution', 'aqueous ammonia', 'NH3·H2O', 'NH4OH'] },
  { key: 'NaBH4', formula: 'NaBH4', label: 'sodium borohydride', aliases: ['sodium borohydride'] },
  { key: 'NaH2PO2', formula: 'NaH2PO2', label: 'sodium hypophosphite', aliases: ['sodium hypophosphite'] },
  { key: 'H2O2', formula: 'H2O2', label: 'hydrogen peroxide', aliases: ['hydrogen peroxide'] },
  { key: 'HCl', formula: 'HCl', label: 'hydrochloric acid', aliases: ['hydrochloric acid'] },
  { key: 'melamine', formula: 'C3H6N6', label: 'melamine', aliases: ['melamine'] },
  { key: 'HMTA', formula: 'C6H12N4', label: 'hexamethylenetetramine', aliases: ['HMTA', 'HMT', 'hexamethylenetetramine', 'hexamine'] },
  { key: 'EG', formula: 'C2H6O2', label: 'ethylene glycol', aliases: ['ethylene glycol', 'EG'] },
  { key: 'KMnO4', formula: 'KMnO4', label: 'potassium permanganate', aliases: ['potassium permanganate'] },
  { key: 'KOH', formula: 'KOH', label: 'potassium hydroxide', aliases: ['potassium hydroxide'] },
  { key: 'NaOH', formula: 'NaOH', label: 'sodium hydroxide', aliases: ['sodium hydroxide'] },
  { key: 'NH4F', formula: 'NH4F', label: 'ammonium fluoride', aliases: ['ammonium fluoride'] },
  { key: 'CO(NH2)2', formula: 'CO(NH2)2', label: 'urea', aliases: ['urea', 'carbamide', 'CH4N2O'] },
  // Fuels and complexing agents of combustion and sol-gel routes.
  { key: 'glucose', formula: 'C6H12O6', label: 'glucose', aliases: ['glucose', 'D-glucose'] },
  { key: 'glycine', formula: 'C2H5NO2', label: 'glycine', aliases: ['glycine'] },
  { key: 'sucrose', formula: 'C12H22O11', label: 'sucrose', aliases: ['sucrose'] },
  { key: 'CS(NH2)2', formula: 'CS(NH2)2', label: 'thiourea', aliases: ['thiourea', 'CH4N2S'] },
  { key: 'C6H8O7', formula: 'C6H8O7', label: 'citric acid', aliases: ['citric acid'] },
  {
    key: 'Ni(NO3)2·6H2O',
    formula: 'Ni(NO3)2·6H2O',
    label: 'nickel nitrate hexahydrate',
    aliases: ['nickel nitrate hexahydrate', 'nickel(II) nitrate hexahydrate'],
  },
  {
    key: 'Co(NO3)2·6H2O',
    formula: 'Co(NO3)2·6H2O',
    label: 'cobalt nitrate hexahydrate',
    aliases: ['cobalt nitrate hexahydrate', 'cobalt(II) nitrate hexahydrate'],
  },
  {
    key: 'Fe(NO3)3·9H2O',
    formula: 'Fe(NO3)3·9H2O',
    label: 'iron nitrate nonahydrate',
    aliases: ['iron nitrate nonahydrate', 'iron(III) nitrate nonahydrate', 'ferric nitrate nonahydrate'],
  },
  { key: 'TiO2', formula: 'TiO2', label: 'titanium dioxide', aliases: ['titanium dioxide', 'titania'] },
  { key: 'CeO2', formula: 'CeO2', label: 'ceria', aliases: ['ceria', 'cerium oxide', 'cerium dioxide'] },
  { key: 'ZrO2', formula: 'ZrO2', label: 'zirconia', aliases: ['zirconia', 'zirconium dioxide', 'zirconium oxide'] },
  { key: 'Al2O3', formula: 'Al2O3', label: 'alumina', aliases: ['alumina', 'aluminium oxide', 'aluminum oxide'] },
  { key: 'ZnO', formula: 'ZnO', label: 'zinc oxide', aliases: ['zinc oxide'] },
  { key: 'MgO', formula: 'MgO', label: 'magnesium oxide', aliases: ['magnesium oxide', 'magnesia'] },
];

/** The lexicon entries (for mention finding). */
export function lexiconEntries(): readonly LexiconEntry[] {
  return lexicon;
}

/** Lower case, British → American spelling, punctuation and spaces folded: the form aliases are compared in. */
export function nameKey(s: string): string {
  return s
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\u2212\u2013\u2010\u2011]/g, '-')
    .replace(/(stabil|util|crystall|polymer|oxid|ioni|synthe)is/g, '$1iz')
    .replace(/aluminium/g, 'aluminum')
    .replace(/[\s\-–_,()]+/g, '');
}

const byAlias = new Map<string, LexiconEntry>();
for (const e of lexicon) {
  for (const a of [e.key, e.label, ...e.aliases]) {
    // Abbreviations are matched case-sensitively (GO vs go); names case-insensitively.
    const isAbbrev = /^[A-Z0-9][A-Za-z0-9-]{0,7}$/.test(a) && a === a.replace(/[a-z]{3,}/g, '');
    byAlias.set(isAbbrev ? `abbr:${a}` : `name:${nameKey(a)}`, e);
  }
  if (e.formula) byAlias.set(`formula:${e.formula}`, e);
}

export interface NormalisedMaterial {
  surface: string;
  /** Canonical key shared by all spellings of the same material (formula when that is all we know). */
  key: string;
  /** Canonical formula, or null (classes of materials, unknown names). */
  formula: string | null;
  label: string | null;
  kind: 'lexicon' | 'formula' | 'name';
}

export function normaliseMaterial(surface: string): NormalisedMaterial {
  const s = surface.trim();
  const entry =
    byAlias.get(`abbr:${s}`) ?? byAlias.get(`abbr:${s.replace(/s$/, '')}`) ?? byAlias.get(`name:${nameKey(s)}`) ?? byAlias.get(`formula:${tidyFormula(s)}`);
  if (entry) return { surface, key: entry.key, formula: entry.formula, label: entry.label, kind: 'lexicon' };
  const parsed = normaliseFormula(s);
  if (parsed) return { surface, key: parsed.formula, formula: parsed.formula, label: null, kind: 'formula' };
  return { surface, key: `name:${nameKey(s)}`, formula: null, label: null, kind: 'name' };
}

/**
 * The key two mentions of a material are compared by: lexicon key, formula, or a folded name; understands
 * "N,N-dimethylformamide (DMF)" and "deionized (DI) water" and ignores trailing punctuation.
 */
export function materialKey(text: string): string {
  const t = text.trim().replace(/[.,;:]+$/, '');
  const m = normaliseMaterial(t);
  if (m.kind !== 'name') return m.key;
  const paren = /^(.*?)\s*\(([^()]+)\)\s*$/.exec(t);
  if (paren) {
    for (const part of [paren[1], paren[2]]) {
      const k = normaliseMaterial(part);
      if (k.kind !== 'name') return k.key;
    }
  }
  const without = t.replace(/\s*\([^()]*\)\s*/g, ' ').trim();
  if (without !== t) {
    const k = normaliseMaterial(without);
    if (k.kind !== 'name') return k.key;
  }
  return m.key;
}

/** Every alias that names the same material as `surface` (for query expansion), surface included. */
export function materialAliases(surface: string): string[] {
  const m = normaliseMaterial(surface);
  const entry = lexicon.find((e) => e.key === m.key);
  if (!entry) return [surface];
  return [...new Set([surface, entry.key, entry.label, ...entry.aliases, ...(entry.formula ? [entry.formula] : [])])];
}

/** The lexicon's content, for the extractor's version fingerprint. */
export const lexiconSource = (): string => JSON.stringify(lexicon);
