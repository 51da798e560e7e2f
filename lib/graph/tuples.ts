import { createHash } from 'node:crypto';
import { namesNoThing, phraseGuardsSource } from './phrase-guards.ts';
import { formulaKey } from '../structure/terms.ts';
import { chemicalNameToFormula } from '../structure/chemical-names.ts';
import { normaliseMaterial, nameKey } from '../structure/materials.ts';
import { normaliseFormula } from '../structure/formula.ts';
import { findProperties, propertyRulesSource } from '../structure/properties.ts';
import { splitSentences } from '../structure/sentences.ts';
import type { PerformanceEntry, SynthesisEntry } from '../structure/record-mapping.ts';

/**
 * Offline tuple extraction (method B's five-field tuples, method C's causal edges): the structured records
 * become tuples — targets synthesized_from precursors and synthesized_by a method, solvents used_as solvent,
 * targets grown_on substrates, processed_at conditions, materials has_property values measured_at conditions —
 * and sentence patterns add doped_with, used_as, part_of and the causal increases / decreases / causes. Every
 * tuple keeps its provenance (paragraph or record, sentence and offsets).
 */

export const RELATIONS = [
  'synthesized_from',
  'synthesized_by',
  'grown_on',
  'processed_at',
  'has_property',
  'doped_with',
  'used_as',
  'part_of', // (part, whole): "planes" part_of "layered structure"
  'increases',
  'decreases',
  'causes',
] as const;
export type Relation = (typeof RELATIONS)[number];
export const CAUSAL_RELATIONS: ReadonlySet<string> = new Set<Relation>(['increases', 'decreases', 'causes']);
/** A typed relation, or a verb-phrase one the clause chunker kept as written ("fabricate_on", "exhibit"). */
export type TupleRelation = Relation | (string & {});

export type EntityKind = 'material' | 'property' | 'method' | 'value' | 'concept';

export interface EntityRef {
  key: string;
  surface: string;
  kind: EntityKind;
  formula: string | null;
}

export interface TupleDraft {
  subject: EntityRef;
  relation: TupleRelation;
  object: EntityRef;
  referenceRelation: string | null;
  referenceNode: string | null;
  value: number | null;
  valueMax: number | null;
  unit: string | null;
  paragraphId: string | null;
  recordId: string | null;
  sentence: string | null;
  start: number | null;
  end: number | null;
}

/**
 * A material mention → its graph entity: a lexicon material ("nickel foam" = NF, "YSZ"), a formula in Hill order
 * (also from names such as "strontium carbonate", and for "NiO nanosheets" the formula the form is made of), or a
 * folded name.
 */
export function materialEntity(surface: string, known?: { key?: string | null; formula?: string | null }): EntityRef {
  if (known) return resolveMaterialEntity(surface, known);
  // The clause reader asks for the same few thousand names hundreds of thousands of times in a graph build; the
  // answer depends on the text alone, so it is kept (a copy is handed out: callers may spread or change it).
  let cached = materialEntityCache.get(surface);
  if (!cached) {
    if (materialEntityCache.size >= 50_000) materialEntityCache.clear();
    cached = resolveMaterialEntity(surface);
    materialEntityCache.set(surface, cached);
  }
  return { ...cached };
}

const materialEntityCache = new Map<string, EntityRef>();

function resolveMaterialEntity(surface: string, known?: { key?: string | null; formula?: string | null }): EntityRef {
  const text = surface.trim();
  // "8 mol% Y2O3-stabilized ZrO2" is a composition of the lexicon material YSZ (as "8YSZ" is).
  const amount = /^\d+(?:\.\d+)?\s*(?:mol|wt|at)\.?\s*%\s*(?=\S)/i.exec(text);
  if (amount) {
    const rest = text.slice(amount[0].length);
    if (normaliseMaterial(rest).kind === 'lexicon') return { ...materialEntity(rest), surface: text };
  }
  const m = normaliseMaterial(text);
  // A lexicon name of a definite compound ("titania") meets its formula (TiO2); lexicon materials without one
  // (YSZ's composition varies, nickel foam is a form of Ni) keep their lexicon key.
  const lexiconCompound = m.kind === 'lexicon' && m.formula ? normaliseFormula(m.formula) : null;
  if (m.kind === 'lexicon' && !(lexiconCompound?.composition && lexiconCompound.elements.length >= 2))
    return { key: `m:${m.key}`, surface: text, kind: 'material', formula: m.formula };
  const formula = known?.formula ?? m.formula ?? chemicalNameToFormula(text) ?? (/^[A-Z][a-z]?$/.test(text) ? text : null);
  const fk = formula ? formulaKey(formula) : null;
  if (fk) return { key: `f:${fk}`, surface: text, kind: 'material', formula };
  // "NiO nanosheets", "La0.6Sr0.4CoO3 cathode": a formula followed by words for its form or role.
  const [first, ...rest] = text.split(/\s+/);
  const firstKey = rest.length > 0 && rest.length <= 3 && rest.every((w) => /^[a-z-]+$/.test(w)) ? formulaKey(first) : null;
  if (firstKey && normaliseMaterial(first).kind !== 'name') return { key: `f:${firstKey}`, surface: text, kind: 'material', formula: first };
  // "highly pure SrCO3", "polycrystalline SrTiO3", "commercial TiO2": lower-case words before a formula say how pure or
  // what form it is, not what it is ("Nb-doped SrTiO3" keeps its name: the capital marks a dopant).
  const words = text.split(/\s+/);
  const last = words.at(-1)!;
  const lastKey = words.length > 1 && words.length <= 4 && words.slice(0, -1).every((w) => /^[a-z][a-z-]*$/.test(w)) ? formulaKey(last) : null;
  if (lastKey && normaliseMaterial(last).kind !== 'name') return { key: `f:${lastKey}`, surface: text, kind: 'material', formula: last };
  return { key: `n:${nameKey(text)}`, surface: text, kind: 'material', formula: null };
}

/** Any phrase → the entity it names: a material, a property (when the phrase is essentially a property name), or a concept. */
export function phraseToEntity(text: string): EntityRef {
  const t = withoutArticle(text);
  // "CO2 reduction", "H2 evolution": a process the formula takes part in, not the material.
  const process = /\s(?:reduction|oxidation|evolution|conversion|adsorption|desorption|splitting|decomposition|production|reaction|uptake|capture|sensing)$/i;
  const m = process.test(t) ? null : materialEntity(t);
  return !m || m.key.startsWith('n:') ? propertyOrConcept(t) : m;
}

/** The object of a has_property claim: the property lexicon entry it names anywhere in it, else whatever it names. */
export function propertyObject(text: string): EntityRef {
  const prop = findProperties(text)[0];
  return prop ? propertyEntity(prop.key, text) : phraseToEntity(text);
}

const withoutArticle = (text: string) => text.replace(/^(?:the|a|an) /i, '').trim();

/** A property entity when the phrase is essentially a property name ("the proton conductivity"), else a concept. */
function propertyOrConcept(t: string): EntityRef {
  const prop = findProperties(t)[0];
  return prop && prop.text.length >= t.length - 4 ? propertyEntity(prop.key, t) : conceptEntity(t);
}

export const propertyEntity = (property: string, surface = property): EntityRef => ({ key: `p:${property}`, surface, kind: 'property', formula: null });
const methodEntity = (method: string): EntityRef => ({ key: `method:${method}`, surface: method, kind: 'method', formula: null });
export const conceptEntity = (text: string): EntityRef => ({ key: `n:${nameKey(text)}`, surface: text.trim(), kind: 'concept', formula: null });
export const valueEntity = (dimension: string, values: number[], unit: string, surface: string): EntityRef => ({
  key: `v:${dimension}:${values.map((v) => Number.parseFloat(v.toPrecision(4))).join('-')}${unit ? ` ${unit}` : ''}`,
  surface,
  kind: 'value',
  formula: null,
});

export const draft = (t: Partial<TupleDraft> & Pick<TupleDraft, 'subject' | 'relation' | 'object'>): TupleDraft => ({
  referenceRelation: null,
  referenceNode: null,
  value: null,
  valueMax: null,
  unit: null,
  paragraphId: null,
  recordId: null,
  sentence: null,
  start: null,
  end: null,
  ...t,
});

/** Tuples from one synthesis entry of a paper record (paragraph- or record-sourced). */
export function synthesisTuples(e: SynthesisEntry): TupleDraft[] {
  const out: TupleDraft[] = [];
  const src = { paragraphId: e.paragraphId ?? null, recordId: e.recordId ?? null };
  // A procedure whose product the structurer could not name still says what went into it: each material keeps its
  // role, so a question about those materials finds the procedure.
  if (e.targets.length === 0)
    for (const [role, list] of [
      ['precursor', e.precursors],
      ['solvent', e.solvents],
      ['additive', e.additives],
      ['substrate', e.substrates],
    ] as const)
      for (const m of list) out.push(draft({ subject: materialEntity(m.text, m), relation: 'used_as', object: conceptEntity(role), ...src }));
  for (const t of e.targets) {
    const target = materialEntity(t.text, t);
    for (const p of e.precursors) out.push(draft({ subject: target, relation: 'synthesized_from', object: materialEntity(p.text, p), ...src }));
    // "others" is the classifier's "no method recognised": not a method to state.
    if (e.method && e.method !== 'others') out.push(draft({ subject: target, relation: 'synthesized_by', object: methodEntity(e.method), ...src }));
    for (const s of e.solvents)
      out.push(
        draft({
          subject: materialEntity(s.text, s),
          relation: 'used_as',
          object: conceptEntity('solvent'),
          referenceRelation: 'in_synthesis_of',
          referenceNode: t.text,
          ...src,
        }),
      );
    for (const a of e.additives)
      out.push(
        draft({
          subject: materialEntity(a.text, a),
          relation: 'used_as',
          object: conceptEntity('additive'),
          referenceRelation: 'in_synthesis_of',
          referenceNode: t.text,
          ...src,
        }),
      );
    for (const s of e.substrates) out.push(draft({ subject: target, relation: 'grown_on', object: materialEntity(s.text, s), ...src }));
    for (const [dimension, list] of [
      ['temperature', e.conditions.temperature],
      ['time', e.conditions.time],
    ] as const) {
      for (const c of list) {
        if (dimension === 'temperature' && !isProcessingTemperature(c.canonical, c.step)) continue;
        out.push(
          draft({
            subject: target,
            relation: 'processed_at',
            object: valueEntity(dimension, c.canonical, c.unit, c.text),
            referenceRelation: c.step ? 'during' : null,
            referenceNode: c.step,
            value: Math.min(...c.canonical),
            valueMax: Math.max(...c.canonical),
            unit: c.unit,
            ...src,
          }),
        );
      }
    }
  }
  return out;
}

/**
 * A temperature below 0 °C in a synthesis paragraph is a measurement (a superconductor's Tc, a cryostat) rather
 * than a processing step, unless the step says it is cold (quenching, freezing, cooling).
 */
function isProcessingTemperature(kelvin: number[], step: string | null): boolean {
  return Math.max(...kelvin) >= 273 || /quench|freez|cool|cryo|liquid nitrogen/i.test(step ?? '');
}

/** Tuples from one performance claim: material has_property property (value), measured_at its first condition. */
export function performanceTuples(e: PerformanceEntry): TupleDraft[] {
  if (!e.material) return [];
  const condition = e.conditions[0];
  const start = e.start ?? null;
  return [
    draft({
      subject: materialEntity(e.material),
      relation: 'has_property',
      // Claims name properties for display ("power density"); the graph uses the property lexicon's keys.
      object: propertyEntity(findProperties(e.property)[0]?.key ?? e.property.toLowerCase().replace(/\s+/g, '-'), e.property),
      referenceRelation: condition ? 'measured_at' : null,
      referenceNode: condition ? condition.text : null,
      value: e.canonical.length ? Math.min(...e.canonical) : null,
      valueMax: e.canonical.length ? Math.max(...e.canonical) : null,
      unit: e.canonicalUnit ?? null,
      paragraphId: e.paragraphId ?? null,
      recordId: e.recordId ?? null,
      sentence: e.sentence,
      start,
      end: start !== null && e.sentence ? start + e.sentence.length : null,
    }),
  ];
}

// Sentence patterns. A "thing" is a formula-like token or a short noun phrase (2–5 words, no verbs of its own).
const THING = String.raw`((?:(?:the |a |an )?(?:[A-Za-z][a-z-]+ ){0,3}[a-z][a-z-]{2,})|(?:[A-Z][A-Za-z0-9()[\]·.+\-−δ/]*[A-Za-z0-9)\]δ]))`;
const PATTERNS: { re: RegExp; relation: Relation; swap?: boolean; objectIsConcept?: boolean }[] = [
  { re: new RegExp(String.raw`\b${THING} (?:was |were |is |are )?doped with ${THING}`, 'g'), relation: 'doped_with' },
  { re: /\b([A-Z][a-z]?)-doped ([A-Z][A-Za-z0-9()[\]·.+\-−δ]*[A-Za-z0-9)\]δ])/g, relation: 'doped_with', swap: true },
  {
    re: new RegExp(
      String.raw`\b${THING} (?:was|were|is|are) (?:used|employed|applied|chosen|selected) as (?:the |an? )?([a-z][a-z -]{2,40}?)(?=[.,;]| for| in| to| and)`,
      'g',
    ),
    relation: 'used_as',
    objectIsConcept: true,
  },
  {
    re: new RegExp(
      String.raw`\b(?:[Ii]ncreasing|[Hh]igher|[Rr]aising|[Mm]ore) ${THING} (?:increases|increased|improves|improved|enhances|enhanced|raises|raised|leads to (?:a )?higher|led to (?:a )?higher|results in (?:a )?higher) (?:the )?([a-z][a-z -]{2,40}?)(?=[.,;]| of| in| and)`,
      'g',
    ),
    relation: 'increases',
    objectIsConcept: true,
  },
  {
    re: new RegExp(
      String.raw`\b(?:[Ii]ncreasing|[Hh]igher|[Rr]aising|[Mm]ore) ${THING} (?:decreases|decreased|reduces|reduced|lowers|lowered|suppresses|suppressed|leads to (?:a )?lower|led to (?:a )?lower|results in (?:a )?lower) (?:the )?([a-z][a-z -]{2,40}?)(?=[.,;]| of| in| and)`,
      'g',
    ),
    relation: 'decreases',
    objectIsConcept: true,
  },
  {
    re: new RegExp(
      String.raw`\b${THING} (?:leads to|lead to|led to|results in|result in|resulted in|causes|cause|caused|induces|induced|gives rise to|gave rise to) (?!by )(?:the |an? )?([a-z][a-z -]{2,40}?)(?=[.,;]| of| in| and| at)`,
      'g',
    ),
    relation: 'causes',
    objectIsConcept: true,
  },
];
// Causes of a causal claim are materials, treatments or conditions, not the study's own methods ("a linear fit
// leads to similar slopes", "the simulation identifies the cause").
const METHOD_WORDS =
  /\b(?:fit|fitting|simulations?|calculations?|approach|study|studies|analysis|analyses|model|theory|theoretical|scope|work|experi-? ?mental|figure|fig|table|equation|data)\b/i;
// When a preposition comes right before the subject, the subject is the tail of a longer phrase ("a mixture of CO2
// and H2 leads to …", "the introduction of OVs on nanosheets leads to …"): the cause is the whole phrase, unknown.
// A cause is the subject of its clause: the statement starts the sentence or follows a clause boundary (a comma,
// "that", "which", "thus" …). Anything else is the tail of a longer subject ("the two-dimensionality of the
// CuO2 planes results in" would make "planes" the cause).
const CLAUSE_START = /(?:^\s*|[,;:(]\s*|\b(?:that|which|whereas|while|because|since|thus|therefore|hence|consequently|so|but|where|when)\s+)$/i;
const TAIL_OF_PHRASE = /\b(?:of|on|in|into|to|from|with|by|for|at|between|and|or)\s+(?:the\s+|a\s+|an\s+)?$/i;

/** phraseToEntity behind the guards of the sentence patterns; `conceptOnly` for effects, which are never materials. */
export const guardedPhraseEntity = (text: string, conceptOnly = false): EntityRef | null => {
  const t = withoutArticle(text);
  if (namesNoThing(t)) return null;
  return conceptOnly ? propertyOrConcept(t) : phraseToEntity(t);
};

/** Tuples stated by sentence patterns in a paragraph, with sentence offsets. */
export function sentenceTuples(text: string, paragraphId: string | null): TupleDraft[] {
  const out: TupleDraft[] = [];
  for (const s of splitSentences(text)) {
    for (const p of PATTERNS) {
      for (const m of s.text.matchAll(p.re)) {
        let [a, b] = [m[1], m[2]];
        if (p.swap) [a, b] = [b, a];
        if (CAUSAL_RELATIONS.has(p.relation)) {
          const subjectAt = m.index! + m[0].indexOf(m[1]);
          if (TAIL_OF_PHRASE.test(s.text.slice(Math.max(0, subjectAt - 16), subjectAt)) || METHOD_WORDS.test(a)) continue;
          if (!CLAUSE_START.test(s.text.slice(0, m.index))) continue;
        }
        const subject = guardedPhraseEntity(a);
        const object = guardedPhraseEntity(b, p.objectIsConcept);
        if (!subject || !object || subject.key === object.key) continue;
        out.push(draft({ subject, relation: p.relation, object, paragraphId, sentence: s.text.trim(), start: s.start, end: s.end }));
      }
    }
  }
  return out;
}

/** A stable id: the same tuple from the same source under the same extractor stamp is stored once. */
export function tupleId(stamp: string, t: TupleDraft): string {
  return createHash('sha256')
    .update([stamp, t.paragraphId, t.recordId, t.subject.key, t.relation, t.object.key, t.referenceRelation, t.referenceNode, t.value, t.start].join('\u0000'))
    .digest('hex')
    .slice(0, 32);
}

/**
 * Text of every rule of this module, for the graph extractor's version stamp: a change to any of them re-extracts
 * every paper. `rules-source.test.ts` fails when a declaration of this module is missing here.
 */
export const tupleRulesSource = (): string =>
  [
    ...PATTERNS.map((p) => `${p.re.source} ${p.relation} ${p.swap ?? ''} ${p.objectIsConcept ?? ''}`),
    THING,
    RELATIONS.join(),
    [...CAUSAL_RELATIONS].join(),
    materialEntity.toString(),
    resolveMaterialEntity.toString(),
    phraseToEntity.toString(),
    propertyObject.toString(),
    withoutArticle.toString(),
    propertyOrConcept.toString(),
    propertyEntity.toString(),
    methodEntity.toString(),
    conceptEntity.toString(),
    valueEntity.toString(),
    draft.toString(),
    synthesisTuples.toString(),
    isProcessingTemperature.toString(),
    performanceTuples.toString(),
    guardedPhraseEntity.toString(),
    sentenceTuples.toString(),
    phraseGuardsSource(),
    METHOD_WORDS.source,
    TAIL_OF_PHRASE.source,
    CLAUSE_START.source,
    // Normalisers the rules call; the quantity and material lexicons reach the stamp through the record extractor's id.
    normaliseMaterial.toString(),
    normaliseFormula.toString(),
    nameKey.toString(),
    formulaKey.toString(),
    chemicalNameToFormula.toString(),
    propertyRulesSource(),
    splitSentences.toString(),
  ].join('\n');
