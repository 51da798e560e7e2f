import type { Dimension } from './quantities.ts';

/**
 * Measured properties under the names chemists give them ("power density" = "maximum power output per unit
 * area" = "PPD"; "Tc" = "superconducting transition temperature"), each with the dimension its values have, so
 * retrieval can match a property however it is written and a value question knows which quantity answers it.
 * Curated from usage in the corpus domains (SOFC, electrocatalysis, superconductors, synthesis, polymers).
 */
export interface PropertyEntry {
  key: string;
  label: string;
  dimension: Dimension | null;
  /** Phrases, matched case-insensitively on word boundaries, except those marked as case-sensitive. */
  phrases: string[];
  caseSensitive?: string[];
  /** What a measurement of it can be, in the dimension's canonical unit (no negative band gap, no Tc above 300 K). */
  range?: { min?: number; max?: number };
}

const properties: PropertyEntry[] = [
  {
    key: 'power-density',
    range: { min: 0 },
    label: 'power density',
    dimension: 'power-density',
    phrases: [
      'power density',
      'power densities',
      'maximum power output per unit area',
      'power output per unit area',
      'maximum power output',
      'peak power',
      'maximum power',
    ],
    caseSensitive: ['PPD', 'MPD'],
  },
  {
    key: 'current-density',
    label: 'current density',
    dimension: 'current-density',
    phrases: ['current density', 'current densities', 'current per unit electrode area', 'current per unit area'],
  },
  {
    key: 'area-resistance',
    range: { min: 0 },
    label: 'area-specific resistance',
    dimension: 'area-resistance',
    phrases: [
      'area-specific resistance',
      'area specific resistance',
      'polarization resistance',
      'polarisation resistance',
      'ohmic resistance',
      'interfacial resistance',
      'resistance',
      'resistances',
    ],
    caseSensitive: ['ASR', 'Rp'],
  },
  {
    key: 'open-circuit-voltage',
    label: 'open-circuit voltage',
    dimension: 'potential',
    phrases: ['open-circuit voltage', 'open circuit voltage', 'open-circuit potential', 'open circuit potential', 'open-circuit voltages'],
    // Solar cells write it Voc, and PDF extraction splits the subscript off ("V oc").
    caseSensitive: ['OCV', 'OCP', 'Voc', 'VOC', 'V oc', 'V OC'],
  },
  {
    key: 'short-circuit-current',
    range: { min: 0 },
    label: 'short-circuit current density',
    dimension: 'current-density',
    phrases: [
      'short-circuit current density',
      'short circuit current density',
      'short-circuit current',
      'short circuit current',
      'short-circuit current densities',
    ],
    caseSensitive: ['Jsc', 'JSC', 'J sc', 'J SC'],
  },
  {
    key: 'fill-factor',
    range: { min: 0, max: 100 },
    label: 'fill factor',
    dimension: 'fraction',
    phrases: ['fill factor', 'fill factors'],
    caseSensitive: ['FF'],
  },
  {
    key: 'homo-level',
    label: 'HOMO energy level',
    dimension: 'energy',
    phrases: ['HOMO energy level', 'HOMO energy levels', 'HOMO level', 'HOMO levels', 'highest occupied molecular orbital'],
    caseSensitive: ['HOMO', 'E HOMO', 'EHOMO'],
  },
  {
    key: 'lumo-level',
    label: 'LUMO energy level',
    dimension: 'energy',
    phrases: ['LUMO energy level', 'LUMO energy levels', 'LUMO level', 'LUMO levels', 'lowest unoccupied molecular orbital'],
    caseSensitive: ['LUMO', 'E LUMO', 'ELUMO'],
  },
  {
    key: 'onset-oxidation-potential',
    label: 'onset oxidation potential',
    dimension: 'potential',
    phrases: ['onset oxidation potential', 'onset oxidation potentials', 'oxidation onset potential'],
  },
  {
    key: 'onset-reduction-potential',
    label: 'onset reduction potential',
    dimension: 'potential',
    phrases: ['onset reduction potential', 'onset reduction potentials', 'reduction onset potential'],
  },
  {
    key: 'polydispersity',
    range: { min: 1 },
    label: 'polydispersity index',
    dimension: null,
    phrases: ['polydispersity index', 'polydispersity'],
    caseSensitive: ['PDI', 'PDIs'],
  },
  {
    key: 'critical-temperature',
    range: { min: 0, max: 300 },
    label: 'superconducting transition temperature',
    dimension: 'temperature',
    phrases: [
      'superconducting transition temperature',
      'superconducting critical temperature',
      'critical temperature',
      'transition temperature',
      'superconducting transition',
      'onset of superconductivity',
      'superconducts',
      'superconducting at',
    ],
    caseSensitive: ['Tc', 'T c', 'TC', 'T_c', 'Tc onset', 'Tconset'],
  },
  {
    key: 'conductivity',
    range: { min: 0 },
    label: 'conductivity',
    dimension: 'conductivity',
    phrases: ['conductivity', 'conductivities', 'ionic conductivity', 'electrical conductivity', 'proton conductivity'],
  },
  { key: 'overpotential', label: 'overpotential', dimension: 'potential', phrases: ['overpotential', 'overpotentials', 'overvoltage'] },
  { key: 'tafel-slope', label: 'Tafel slope', dimension: 'tafel-slope', phrases: ['tafel slope', 'tafel slopes'] },
  {
    key: 'band-gap',
    range: { min: 0 },
    label: 'band gap',
    dimension: 'energy',
    phrases: ['band gap', 'bandgap', 'band-gap', 'optical gap', 'energy gap', 'band gaps', 'bandgaps', 'optical gaps', 'energy gaps'],
  },
  {
    key: 'activation-energy',
    range: { min: 0 },
    label: 'activation energy',
    dimension: 'energy',
    phrases: ['activation energy', 'activation energies'],
    caseSensitive: ['Ea'],
  },
  { key: 'thickness', range: { min: 0 }, label: 'thickness', dimension: 'length', phrases: ['thickness', 'thick- ness', 'thick'] },
  {
    key: 'wavelength',
    range: { min: 0 },
    label: 'wavelength',
    dimension: 'length',
    phrases: ['wavelength', 'wavelengths', 'emission peak', 'emission maximum'],
  },
  {
    key: 'size',
    range: { min: 0 },
    label: 'size',
    dimension: 'length',
    phrases: ['particle size', 'grain size', 'crystallite size', 'pore size', 'diameter', 'diameters', 'mean size', 'average size'],
  },
  {
    key: 'surface-area',
    range: { min: 0 },
    label: 'specific surface area',
    dimension: 'specific-area',
    phrases: ['surface area', 'specific surface area', 'BET surface area', 'surface areas', 'specific surface areas'],
  },
  {
    key: 'mobility',
    range: { min: 0 },
    label: 'carrier mobility',
    dimension: 'mobility',
    phrases: ['mobility', 'mobilities', 'carrier mobility', 'electron mobility', 'hole mobility', 'Hall mobility', 'field-effect mobility'],
  },
  {
    key: 'capacity',
    range: { min: 0 },
    label: 'specific capacity',
    dimension: 'specific-capacity',
    phrases: ['specific capacity', 'discharge capacity', 'capacity', 'capacities'],
  },
  {
    key: 'efficiency',
    range: { min: 0, max: 100 },
    label: 'efficiency',
    dimension: 'fraction',
    phrases: ['efficiency', 'faradaic efficiency', 'quantum efficiency', 'conversion efficiency', 'efficiencies', 'power conversion efficiencies'],
    // A solar cell's power conversion efficiency.
    caseSensitive: ['PCE', 'PCEs'],
  },
  { key: 'pressure', label: 'pressure', dimension: 'pressure', phrases: ['pressure', 'pressures', 'partial pressure'] },
  { key: 'yield', range: { min: 0 }, label: 'yield', dimension: null, phrases: ['yield', 'production rate', 'evolution rate'] },
  { key: 'degradation', label: 'degradation rate', dimension: null, phrases: ['degradation rate', 'degradation'] },
  {
    key: 'temperature',
    label: 'temperature',
    dimension: 'temperature',
    phrases: ['temperature', 'temperatures', 'temp', 'temps', 'heated', 'calcined', 'annealed', 'sintered'],
  },
  { key: 'duration', range: { min: 0 }, label: 'duration', dimension: 'time', phrases: ['how long', 'duration', 'for how long', 'time', 'maintained', 'held'] },
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
// The phrases as one alternation with the word-boundary test after it; the test before it is done by hand in
// `phraseMatches`. A regular expression that starts with a lookbehind is tried at every position of every
// sentence, while one that starts with the phrases lets the engine skip to places where a phrase can begin:
// the same matches, several times faster over a corpus.
const phraseAlternation = (phrases: string[], flags: string) =>
  new RegExp(
    `(?:${phrases
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|')})(?![\\w-])`,
    flags,
  );
const ciRe = phraseAlternation(
  properties.flatMap((p) => p.phrases),
  'gi',
);
const csRe = phraseAlternation(
  properties.flatMap((p) => p.caseSensitive ?? []),
  'g',
);

/**
 * Matches of a phrase alternation that do not start inside a word (`(?<![\w-])` before it): a match that does
 * is skipped by one character, since no phrase can start at that place, exactly as the lookbehind would.
 */
function phraseMatches(re: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > 0 && /[\w-]/.test(text[m.index - 1])) re.lastIndex = m.index + 1;
    else out.push(m);
  }
  return out;
}

const byPhrase = new Map<string, PropertyEntry>();
for (const p of properties) {
  for (const ph of p.phrases) byPhrase.set(ph.toLowerCase().replace(/\s+/g, ' '), p);
  for (const ph of p.caseSensitive ?? []) byPhrase.set(`cs:${ph}`, p);
}

export interface PropertyMention {
  key: string;
  text: string;
  start: number;
  end: number;
  dimension: Dimension | null;
}

/** Property mentions in a text (longest phrase wins where phrases overlap). */
export function findProperties(text: string): PropertyMention[] {
  const out: PropertyMention[] = [];
  const taken: [number, number][] = [];
  const push = (m: RegExpMatchArray, entry: PropertyEntry | undefined) => {
    if (!entry) return;
    const start = m.index!;
    const end = start + m[0].length;
    if (taken.some(([a, b]) => start < b && end > a)) return;
    taken.push([start, end]);
    out.push({ key: entry.key, text: m[0], start, end, dimension: entry.dimension });
  };
  for (const m of phraseMatches(ciRe, text)) push(m, byPhrase.get(m[0].toLowerCase().replace(/\s+/g, ' ')));
  for (const m of phraseMatches(csRe, text)) push(m, byPhrase.get(`cs:${m[0].replace(/\s+/g, ' ')}`));
  return out.sort((a, b) => a.start - b.start);
}

/** Adjectives a comparison asks about a property with ("which is more conductive", "the most efficient cell"). */
const COMPARED_ADJECTIVES: Record<string, string> = { conductive: 'conductivity', conducting: 'conductivity', efficient: 'efficiency' };
const COMPARED = new RegExp(`\\b(?:more|most|less|least|better|best|higher|highest)\\s+(${Object.keys(COMPARED_ADJECTIVES).join('|')})\\b`, 'gi');

/**
 * The properties a question asks about with a comparative adjective ("Which is more conductive, YSZ or GDC?"): the
 * adjective's span, as a mention of its property. Questions only: in a paper's text "conductive carbon" names no
 * measured conductivity.
 */
export function findComparedProperties(text: string): PropertyMention[] {
  return [...text.matchAll(COMPARED)].map((m) => {
    const entry = propertyEntry(COMPARED_ADJECTIVES[m[1].toLowerCase()])!;
    const start = m.index! + m[0].length - m[1].length;
    return { key: entry.key, text: m[1], start, end: start + m[1].length, dimension: entry.dimension };
  });
}

export function propertyEntry(key: string): PropertyEntry | undefined {
  return properties.find((p) => p.key === key);
}

/** The property lexicon and its matcher, for the version stamps of what is extracted with them. */
export const propertyRulesSource = (): string =>
  [JSON.stringify(properties), ciRe.source, csRe.source, phraseMatches.toString(), findProperties.toString()].join('\n');
