import { splitSentences } from '../structure/sentences.ts';
import { conceptEntity, draft, phraseToEntity, type TupleDraft } from './tuples.ts';

/**
 * What a material serves as in a device or a reaction, from the ways papers say it: "TiO2 as a photoanode and
 * platinum as a cathode", "noble metals such as Pt and Ir as catalysts", "transition metal oxides such as WO3",
 * "WO3 (cathode)", "the electrolyte was 0.5 M H2SO4", "two gold electrodes". Each gives `material used_as role`, the
 * role a concept named by its singular ("catalyst", "counter electrode"). Only a phrase the material lexicon or the
 * formula reader takes for a material is a subject: "the sample as a reference" says nothing of a material.
 */

// Roles a material plays in a device or a reaction, by the nouns papers use (plural forms follow from the optional
// "s"/"es"). Not the roles of a synthesis (precursor, solvent, additive): the records state those, from the recipe.
const ROLE_NOUNS =
  '(?:(?:electro|photo|co-?)?catalyst|photo(?:anode|cathode)|anode|cathode|(?:working |counter |reference )?electrode|(?:solid |polymer )?electrolyte|substrate|support|binder|ionomer|membrane|separator|current collector|(?:light )?absorber|dopant|template|(?:photo)?sensiti[sz]er|(?:hole|electron)[- ]transport(?:ing)? (?:layer|material)|buffer layer|interlayer|catalyst layer|gas diffusion layer|surfactant|reducing agent|oxidant|oxidi[sz]ing agent|filler|matrix|coating|adsorbent|sorbent)';
const ROLE = `(${ROLE_NOUNS}(?:e?s)?)`;
// A material as written: a formula or abbreviation token, or up to three lower-case words ("indium tin oxide").
const MATERIAL_WORDS = String.raw`(?:[A-Z][A-Za-z0-9()[\]·.+\-−δ/]*[A-Za-z0-9)\]δ]|[a-z][a-z-]+(?: [a-z][a-z-]+){0,2})`;
const MATERIAL = `(${MATERIAL_WORDS})`;
// The rest of a list after its first material: ", CoP and Ni2P".
const MORE_MATERIALS = String.raw`((?:,\s*(?:and\s+)?${MATERIAL_WORDS})*(?:,?\s+(?:and|or)\s+${MATERIAL_WORDS})?)`;
const ROLE_ADJECTIVE =
  '(?:(?:cathodic|anodic|active|efficient|promising|transparent|conductive|conducting|stable|solid|liquid|aqueous|alkaline|acidic|noble[- ]metal|bifunctional|non-precious|metal-free|alternative) )?';

// Where a pattern's material phrase is read from: its last words when the role follows it ("… platinum as a
// cathode"), its first words when the material follows the role ("the electrolyte was 0.5 M H2SO4 solution").
const PATTERNS: { re: RegExp; material: number; role: number; more?: number; read: 'tail' | 'head' }[] = [
  // "using TiO2 as a photoanode", "Pt was used as the counter electrode" (not "such as", not "as well as").
  {
    re: new RegExp(
      String.raw`(?<!such )(?<!well )\b${MATERIAL}(?: (?:was|were|is|are) (?:\w+ly )?(?:used|employed|applied|chosen|selected|adopted|utili[sz]ed))?(?: (?:served|serves|serving|acts?|acted|acting|functions?|functioned))? as (?:the |an? )?${ROLE_ADJECTIVE}${ROLE}\b`,
      'g',
    ),
    material: 1,
    role: 2,
    read: 'tail',
  },
  // "transition metal oxides such as WO3 and MoO3", "catalysts, such as Pt, Ir and Ru".
  {
    re: new RegExp(String.raw`\b${ROLE},? (?:such as|e\.g\.,?|including|like) ${MATERIAL}${MORE_MATERIALS}`, 'g'),
    material: 2,
    role: 1,
    more: 3,
    read: 'head',
  },
  // "WO3 (cathode)", "Ni foam (anode)".
  { re: new RegExp(String.raw`\b${MATERIAL}(?: foam| foil| mesh| wire| film| sheet)? \((?:the |an? )?${ROLE}\)`, 'g'), material: 1, role: 2, read: 'tail' },
  // "The electrolyte was 0.5 M H2SO4", "the substrate is FTO glass".
  {
    re: new RegExp(String.raw`\b[Tt]he ${ROLE} (?:was|is|were|are|consisted of|consists of) (?:an? )?(?:[\d.]+ ?(?:[mμ]?M|wt ?%|mol ?%) )?${MATERIAL}`, 'g'),
    material: 2,
    role: 1,
    read: 'head',
  },
  // "two gold electrodes", "a NiMo electrocatalyst", "Pt-based catalysts": the role noun right after the material.
  { re: new RegExp(String.raw`\b${MATERIAL}(?:-based)? ${ROLE}\b`, 'g'), material: 1, role: 2, read: 'tail' },
];

/** "catalysts" → "catalyst", "matrices" stays as written apart from its "es". */
function singular(role: string): string {
  const r = role.toLowerCase().replace(/-/g, ' ');
  if (/(?:ss|sis)$/.test(r)) return r;
  if (/(?:xes|ches|shes)$/.test(r)) return r.slice(0, -2);
  return r.endsWith('s') ? r.slice(0, -1) : r;
}

// A mixture is no material of its own ("a PVA aqueous solution binder").
const MIXTURE = /\b(?:solutions?|mixtures?|suspensions?|dispersions?|slurry|slurries)$/i;

/** The longest run of `phrase`'s last (or first) three words at most that reads as a material, or null. */
function materialIn(phrase: string, read: 'tail' | 'head') {
  const words = phrase.trim().split(/\s+/);
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    const part = (read === 'tail' ? words.slice(-n) : words.slice(0, n)).join(' ');
    if (MIXTURE.test(part)) return null;
    const e = phraseToEntity(part);
    if (e.kind === 'material') return e;
  }
  return null;
}

/** `material used_as role` tuples of a paragraph, with sentence offsets. */
export function roleTuples(text: string, paragraphId: string | null): TupleDraft[] {
  const out: TupleDraft[] = [];
  const seen = new Set<string>();
  for (const s of splitSentences(text)) {
    for (const p of PATTERNS) {
      for (const m of s.text.matchAll(p.re)) {
        const role = conceptEntity(singular(m[p.role]));
        const phrases = [m[p.material], ...(p.more !== undefined && m[p.more] ? m[p.more].split(/,\s*|\s+(?:and|or)\s+/) : [])];
        for (const phrase of phrases) {
          const material = phrase ? materialIn(phrase.replace(/^(?:and|or)\s+/, ''), p.read) : null;
          if (!material) continue;
          const key = `${material.key}\u0000${role.key}`;
          if (seen.has(key)) continue;
          seen.add(key);
          out.push(draft({ subject: material, relation: 'used_as', object: role, paragraphId, sentence: s.text.trim(), start: s.start, end: s.end }));
        }
      }
    }
  }
  return out;
}

/** Text of these rules, for the graph extractor's version stamp. */
export const roleRulesSource = (): string =>
  [
    ROLE,
    MATERIAL,
    MORE_MATERIALS,
    ROLE_ADJECTIVE,
    MIXTURE.source,
    ...PATTERNS.map((p) => `${p.re.source} ${p.material} ${p.role} ${p.more ?? ''} ${p.read}`),
  ].join('\n');
