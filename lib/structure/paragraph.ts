import {
  classifierRulesSource,
  classifyParagraphRole,
  classifySynthesisMethod,
  roleOtherThanSynthesis,
  type ParagraphRole,
  type SynthesisMethod,
} from './classify.ts';
import { entityRulesSource, type EntityMention, type MentionTagger, mentionsWithRoles, synthesisMentionCandidates } from './entities.ts';
import { parseQuantities, quantityRulesSource, type Quantity } from './quantities.ts';
import { lexiconSource, normaliseMaterial } from './materials.ts';
import { chemicalNameRulesSource, findChemicalNames } from './chemical-names.ts';
import { clauseAround, notAStatedValue, pastInequality, valueContextRulesSource } from './value-context.ts';
import { sha256 } from '../common/hash.ts';
import { ATMOSPHERE } from './recipe-steps.ts';
import { splitSentences } from './sentences.ts';
import { findSpacedFormulas, normaliseFormula } from './formula.ts';

/** Everything the structuring stage says about one paragraph. */
export interface ParagraphStructure {
  role: ParagraphRole;
  method: SynthesisMethod | null;
  entities: EntityMention[];
  quantities: Quantity[];
  conditions: SynthesisConditions | null;
  performance: PerformanceClaim[];
  /**
   * The id of the extractor that gave this reading when it is not the one that was asked (the trained heads fall back
   * to the rules for a paragraph they could not review yet): stamped instead, so a later run reviews it.
   */
  structurer?: string;
}

export interface ConditionValue {
  text: string;
  canonical: number[];
  unit: string;
}

/** Synthesis conditions attached to the step they belong to (the sentence naming the operation). */
export interface SynthesisConditions {
  temperature: (ConditionValue & { step: string | null })[];
  time: (ConditionValue & { step: string | null })[];
  pressure: ConditionValue[];
  atmosphere: string[];
  ph: number[];
  concentration: ConditionValue[];
}

export interface PerformanceClaim {
  material: string | null;
  materialKey: string | null;
  property: string;
  value: number[];
  unit: string;
  canonical: number[];
  canonicalUnit: string;
  conditions: { text: string; dimension: string; canonical: number[]; unit: string }[];
  sentence: string;
  start: number;
}

export interface StructureExtractor {
  /** Stable id (name + version); stored with the results so a new version re-structures everything. */
  id: string;
  /** Called with a page's paragraphs before they are structured one by one (an extractor that batches work does it here). */
  prepare?(texts: string[]): Promise<void>;
  structureParagraph(text: string): ParagraphStructure | Promise<ParagraphStructure>;
}

/** The words that name a preparation step, and the step (the records' conditions and the answer gate read them). */
export const STEP_WORDS: [RegExp, string][] = [
  [/\bcalcin\w*/i, 'calcination'],
  [/\bsinter\w*/i, 'sintering'],
  [/\banneal\w*/i, 'annealing'],
  [/\b(?:hydrothermal|solvothermal|autoclave)\w*/i, 'hydro/solvothermal'],
  [/\bdr(?:ied|y|ying)\b/i, 'drying'],
  [/\b(?:phosphori[sz]\w*|phosphid\w*|seleni[sz]\w*|sulfuri[sz]\w*)/i, 'conversion'],
  [/\bpyroly\w*/i, 'pyrolysis'],
  [/\bstirr\w*/i, 'stirring'],
  [/\b(?:heated|heating)\b/i, 'heating'],
  [/\bage[ds]?\b|\baging\b/i, 'aging'],
  [/\belectrodeposit\w*|\bdeposit\w*/i, 'deposition'],
];
/** Property words and the dimensions their values come in. */
const PERFORMANCE_PROPERTIES: [RegExp, string, string[]][] = [
  [/\boverpotentials?\b|η\s?\d*/i, 'overpotential', ['potential']],
  [/\bTafel slopes?\b/i, 'Tafel slope', ['tafel-slope']],
  [/\b(?:peak |maximum )?power densit(?:y|ies)\b/i, 'power density', ['power-density']],
  [/\b(?:ionic |proton |electrical |total )?conductivit(?:y|ies)\b/i, 'conductivity', ['conductivity']],
  [/\b(?:specific |discharge |reversible )?capacit(?:y|ies)\b/i, 'specific capacity', ['specific-capacity']],
  [/\bband ?gaps?\b|\bE\s?g\b/i, 'band gap', ['energy']],
  [/\b(?:area[- ]specific |polari[sz]ation )resistance\b|\bASR\b|\bR\s?p\b/i, 'area-specific resistance', ['area-resistance']],
  [/\bonset potential\b/i, 'onset potential', ['potential']],
  [/\bT\s?c\b|\bcritical temperature\b|\bsuperconducting transition\b/i, 'critical temperature', ['temperature']],
  [/\bFaradaic efficienc(?:y|ies)\b/i, 'Faradaic efficiency', ['fraction']],
  [/\bactivation energ(?:y|ies)\b|\bE\s?a\b/i, 'activation energy', ['energy']],
];
const CONDITION_DIMENSIONS = new Set(['temperature', 'current-density', 'specific-current', 'pressure', 'potential', 'concentration', 'time']);

export function describeConditions(text: string, quantities: Quantity[]): SynthesisConditions {
  const sents = splitSentences(text);
  const stepAt = (pos: number) => {
    const s = [...sents].reverse().find((x) => x.start <= pos) ?? sents[0];
    return STEP_WORDS.find(([re]) => re.test(s.text))?.[1] ?? null;
  };
  const cv = (q: Quantity): ConditionValue => ({ text: q.text, canonical: q.canonical, unit: q.canonicalUnit });
  const ph = [...text.matchAll(/\bpH\s*(?:=|of|value of|~|≈)?\s*(\d{1,2}(?:\.\d+)?)/g)].map((m) => Number(m[1])).filter((v) => v >= 0 && v <= 14);
  return {
    temperature: quantities.filter((q) => q.dimension === 'temperature').map((q) => ({ ...cv(q), step: stepAt(q.start) })),
    time: quantities.filter((q) => q.dimension === 'time').map((q) => ({ ...cv(q), step: stepAt(q.start) })),
    pressure: quantities.filter((q) => q.dimension === 'pressure').map(cv),
    atmosphere: [...new Set([...text.matchAll(ATMOSPHERE)].map((m) => normaliseGas(m[1])))],
    ph,
    concentration: quantities.filter((q) => q.dimension === 'concentration').map(cv),
  };
}

function normaliseGas(g: string): string {
  const map: Record<string, string> = { argon: 'Ar', nitrogen: 'N2', oxygen: 'O2', hydrogen: 'H2', ammonia: 'NH3' };
  return map[g.toLowerCase()] ?? g;
}

const FORMULA_TOKEN = /(?<![\w(°])[A-Z][A-Za-z0-9()[\]·.@/+\-−δ]*[A-Za-z0-9)\]δ](?![\w])/g;

// Fuels, atmospheres and products ("power density … with H2 fuel", "H2 yield"), plural acronyms that parse as
// formulas ("SOFCs" = S·O·F·Cs) and reference numbers glued to a symbol ("°C3,4") are never the claim's material.
const NOT_CLAIM_MATERIAL = /^(?:H2|O2|N2|CH4|CO2?|H2O|NH3|H2S|Ar|He|C\d)$|^[A-Z]{2,}s$/;

/** Formula and lexicon names of a sentence (offsets in it), not fuels, atmospheres or ions: what a claim can be of. */
function claimMaterials(sentence: string): { text: string; start: number }[] {
  const spaced = findSpacedFormulas(sentence);
  return (
    [...sentence.matchAll(FORMULA_TOKEN)]
      // An ion ("Ce4+", "Ba2+") is a species in the material, not the material.
      .filter((m) => sentence[m.index + m[0].length] !== '+')
      // A formula printed with spaced subscripts ("MgB 2") is read whole.
      .map((m) => ({ text: spaced.find((f) => f.start === m.index)?.joined ?? m[0], start: m.index }))
      .filter((m) => !NOT_CLAIM_MATERIAL.test(m.text) && (normaliseFormula(m.text) !== null || normaliseMaterial(m.text).kind === 'lexicon'))
  );
}

/**
 * Performance claims: a property word, a value in a matching unit (not a rate, a bound, a change, an argument or a
 * processing temperature: value-context.ts) and the material of the value's clause ("Tantalum shows Tc = 4.4 K; in
 * MgB2 …" gives tantalum's value to no formula), else the sentence's first.
 */
export function describePerformance(text: string, quantities: Quantity[]): PerformanceClaim[] {
  const claims: PerformanceClaim[] = [];
  for (const s of splitSentences(text)) {
    const qs = quantities.filter((q) => q.start >= s.start && q.end <= s.start + s.text.length);
    if (qs.length === 0) continue;
    const materials = claimMaterials(s.text);
    for (const [re, property, dims] of PERFORMANCE_PROPERTIES) {
      const pm = re.exec(s.text);
      if (!pm) continue;
      const at = s.start + pm.index;
      const mention = { start: at, end: at + pm[0].length };
      // The value is the first quantity of the property's dimension after the property word (else before it).
      const candidates = qs.filter((q) => dims.includes(q.dimension));
      const value = candidates.find((q) => q.start >= at) ?? candidates.at(-1);
      if (!value || pastInequality(text, mention, value)) continue;
      // A range after the property's own name is its values over the samples or conditions ("the conductivity was
      // in the range of 100 to 1000 mS cm−1"), so a window is a claim here; every other reason is not.
      const why = notAStatedValue(text, value);
      if (why && why !== 'window') continue;
      const clause = clauseAround(s.text, value.start - s.start);
      const own = materials.filter((m) => m.start >= clause.start && m.start < clause.end);
      // A clause with no formula of its own that names a material in words is about that one.
      const other =
        own.length === 0 &&
        materials.length > 0 &&
        clause.end - clause.start < s.text.length &&
        findChemicalNames(s.text.slice(clause.start, clause.end)).length > 0;
      const material = other ? null : ((own[0] ?? materials[0])?.text ?? null);
      claims.push({
        material,
        materialKey: material ? normaliseMaterial(material).key : null,
        property,
        value: value.values,
        unit: value.unit,
        canonical: value.canonical,
        canonicalUnit: value.canonicalUnit,
        conditions: qs
          .filter((q) => q !== value && CONDITION_DIMENSIONS.has(q.dimension) && !dims.includes(q.dimension))
          .map((q) => ({ text: q.text, dimension: q.dimension, canonical: q.canonical, unit: q.canonicalUnit })),
        sentence: s.text.trim(),
        start: s.start,
      });
    }
  }
  return claims;
}

/** The offline extractor: rules, lexicons and patterns; no model, no network. */
export const offlineExtractor: { id: string; structureParagraph(text: string): ParagraphStructure } = {
  // The rules' own text is part of the id: any change to a cue, pattern, unit or lexicon entry re-structures
  // the stored paragraphs on the next run. The number changes when the code combining the rules does.
  id: `offline@9-${sha256([NOT_CLAIM_MATERIAL.source, FORMULA_TOKEN.source, valueContextRulesSource(), classifierRulesSource(), entityRulesSource(), lexiconSource(), chemicalNameRulesSource(), quantityRulesSource(), STEP_WORDS.map(([r, n]) => r.source + n).join(), ATMOSPHERE.source, PERFORMANCE_PROPERTIES.map(([r, n, d]) => r.source + n + d.join()).join()].join('\n')).slice(0, 10)}`,
  structureParagraph(text: string): ParagraphStructure {
    return structureAs(text, classifyParagraphRole(text).label);
  },
};

/**
 * A paragraph structured as `role` (decided by the rules or a trained head): its materials, conditions and claims by
 * the rules, the materials' roles from `tagger` when given (the trained material tagger). A synthesis paragraph says
 * how a material was made: when no material can be found in it at all, the procedure words belong to a measurement or
 * sample preparation ("samples were prepared for TEM"), so the rules' best other role is taken. (On the KIST dev set
 * no gold synthesis paragraph is affected.) `method` is the rules' unless given.
 */
export function structureAs(text: string, decided: ParagraphRole, method?: SynthesisMethod, tagger?: MentionTagger): ParagraphStructure {
  let role = decided;
  const candidates = role === 'synthesis' ? synthesisMentionCandidates(text) : [];
  // Whether the paragraph makes a material is the rules' call: the tagger's candidates include product-like words no
  // rule placed, which a discussion misread as synthesis also has.
  const ruled = mentionsWithRoles(
    candidates,
    candidates.map((c) => c.role),
  );
  if (role === 'synthesis' && ruled.length === 0) role = roleOtherThanSynthesis(text).label;
  const entities = role === 'synthesis' && tagger ? mentionsWithRoles(candidates, tagger(text, candidates)) : ruled;
  const quantities = parseQuantities(text);
  const synthesis = role === 'synthesis';
  return {
    role,
    method: synthesis ? (method ?? classifySynthesisMethod(text).label) : null,
    entities,
    quantities,
    conditions: synthesis ? describeConditions(text, quantities) : null,
    performance: synthesis ? [] : describePerformance(text, quantities),
  };
}

/** A trained material tagger with the id its weights go by. */
export interface NamedTagger {
  id: string;
  tag: MentionTagger;
}

/** The rules with the materials' roles from a trained tagger (the offline extractor itself when there is none). */
export function rulesExtractor(tagger: NamedTagger | null): { id: string; structureParagraph(text: string): ParagraphStructure } {
  if (!tagger) return offlineExtractor;
  return {
    id: `${offlineExtractor.id}+${tagger.id}`,
    structureParagraph: (text) => structureAs(text, classifyParagraphRole(text).label, undefined, tagger.tag),
  };
}
