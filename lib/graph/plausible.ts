import { findProperties, propertyEntry } from '../structure/properties.ts';
import { parseQuantities } from '../structure/quantities.ts';
import type { EntityRef, TupleDraft } from './tuples.ts';

/**
 * The last check on a tuple read from prose, whichever reader made it: what a hand-judged sample of the graph
 * showed to be wrong in a way a rule can see. A tuple passes unless
 * - an end is a fragment of the sentence rather than a thing: a connective or adverb ("due", "either", "according"),
 *   a comparative ("weaker"), the authors, a stray bracket ("USA)"), an equation ("B = • φ"), a bare number, or a
 *   run of more than eight words;
 * - it says a thing was made *by* a material or a property was made at all ("CeO2" as the method of LDC; "open-
 *   circuit voltage synthesized by PDPP-DTS");
 * - it gives a property without a value, or a temperature as a property (a temperature in prose is a condition:
 *   "heat treated at 610–700 °C" is not the strength's temperature);
 * - its reference condition is not one a measurement is made at ("measured at the 1950s");
 * - the sentence negates its subject ("with no apparent energy scale").
 */
const FRAGMENT =
  /^(?:due|either|neither|according|accordingly|respectively|authors?|we|us|our|one|ones|here|there|therein|thereby|thus|hence|however|whereas|while|which|what|both|all|each|other|others|former|latter|such|same|weak(?:er|est)?|strong(?:er|est)?|high(?:er|est)?|low(?:er|est)?|large(?:r|st)?|small(?:er|est)?|resistive|capacitive|conductive|crystalline|amorphous|respective)$/i;
// A phrase ending in a connective was cut before what it connects ("increased temperature due").
const CUT_AFTER = /\b(?:due|according|because|owing|thanks|prior|compared|relative|respect)$/i;
// A phrase that starts with a conjunction or adverb was cut after it ("while between", "Instead").
const CUT_BEFORE = /^(?:while|whereas|instead|then|thus|also|however|although|though|since|because|if|when|where|whether|unless|only|even|just|rather)\b/i;
// Endings of adjectives and adverbs, not of the nouns a graph holds ("additive" and "derivative" are kept).
const ADJECTIVE_ENDING = /(?:ly|ous|(?<!addit|derivat|object|alternat|perspect|initiat|representat|relat)ive|ful|less|ical)$/;
const ADJECTIVES =
  /^(?:sudden|full|right|left|similar|certain|present|possible|available|clear|obvious|common|general|specific|simple|direct|recent|further|slight|strong|weak|good|poor|fine|pure|true|real|close|open|free|complete|total|partial|main|key|novel|efficient|different|sufficient|excellent|apparent|consistent|dependent|independent|evident|stable|suitable|comparable|available|possible|feasible|visible)$/;
const PURPOSE_VERB =
  /^(?:modify|understand|construct|determine|obtain|improve|investigate|study|achieve|reduce|increase|enhance|evaluate|describe|described|explain|calculate|measure|prepare|remove|ensure|avoid|minimi[sz]e|maximi[sz]e|provide|identify|estimate|compare|assess|characteri[sz]e|confirm|verify|control|covered|shown|reported|given|used|obtained|observed)\b/i;
const PARTICLE = /^(?:up|out|down|off|in|on|away|back|parallel|perpendicular|together|apart|above|below|further)$/i;
// "vacuum dried", "air annealed": the atmosphere of a treatment, not what was treated.
const ATMOSPHERE = /^(?:vacuum|air|argon|nitrogen|oxygen|ambient|atmosphere)$/i;
// What the study itself does or a place in the text ("this paper presents", "Step 4 compares pictures", "a large
// number", "two times", "at the location"): a graph reader learns nothing from such an end unless a named thing
// (a formula, an abbreviation, a number) qualifies it ("PL imaging pictures").
const TRIVIAL_HEAD =
  /^(?:paper|article|work|study|method|approach|algorithm|procedure|phenomen(?:on|a)|quality|series|combination|contributions?|parameters?|co-?existence|survival|occurrence|conclusion|conjunction|location|position|number|times|zero|pictures?|spectrum|strateg(?:y|ies)|opportunit(?:y|ies)|attempts?|directions?|measurements?|set-?up|questions?|sequence|information|attention|fact|idea|view|step|curves?|onset|reasons?|problems?|inset|trace)$/i;
const VAGUE_MODIFIER =
  /^(?:a|an|the|this|that|these|those|its|their|all|each|both|some|many|few|several|large|small|big|high|low|new|same|entire|whole|following|first|second|third|further|main|overall|valuable|great|good|other|one|two|three|four|five|six|[a-z]+(?:al|ous|ive|ble|ing|ed|ic|ary|ful|ant|ent))$/i;
// An end that is a bare verb or gerund cut out of a clause ("achieved by tuning", "evaluated to rationalize",
// "appears to take place"), unless it names a treatment ("deposited by spin-coating").
const VERB_END = /^(?:take place|occur|rationali[sz]e|proceed|happen|[a-z]+ing)$/i;
const TREATMENT_ING =
  /(?:coat|sinter|anneal|mill|cast|sputter|dop|quench|grind|spray|print|etch|polish|stirr|heat|cool|dry|press|roll|spinn|calcin|firing|plat|bond|weld|tempering|machin|forg|draw|extrud|infiltrat|impregnat|dipp|leach|wash)ing$/i;
// A phrase that ends with a preposition or a participle was cut before what it names ("valuable information
// about", "the increased catalytic activity seen", "the algorithm described").
const CUT_END = /\s(?:about|for|to|in|on|at|from|by|into|than|as|seen|shown|observed|obtained|used|described|reported|measured|mentioned)$/i;
function trivialEnd(e: EntityRef): boolean {
  if (e.kind !== 'concept') return false;
  const label = e.surface.trim();
  if (VERB_END.test(label) && !TREATMENT_ING.test(label)) return true;
  // A figure panel ("5(c)"), a numbered step or a bare figure ("about 1" of "about 1 : 10") names nothing.
  if (
    CUT_END.test(label) ||
    /^(?:(?:step|section|figure|fig\.?|table|scheme|eq\.?)\s*)?\d+\s*\(?[a-z]?\)?$|^(?:about|ca\.?|approximately|nearly)\s+\d/i.test(label)
  )
    return true;
  // "a large number", "the following three reasons", "an experimental set-up" — but "the self-flux method" names one.
  const words = label.split(/\s+/);
  return TRIVIAL_HEAD.test(words.at(-1) ?? '') && words.slice(0, -1).every((w) => VAGUE_MODIFIER.test(w));
}

const MAKING = /^(?:synthesized_by|synthesize|prepare_by|prepared_by|grow_by|grown_by|fabricate_by|obtain_by|made_by)$/;
const CONDITION_DIMENSIONS = new Set(['temperature', 'pressure', 'potential', 'current-density', 'frequency', 'fraction', 'concentration']);

function fragmentOf(e: EntityRef): boolean {
  const label = e.surface.trim();
  if (FRAGMENT.test(label) || CUT_AFTER.test(label) || ATMOSPHERE.test(label) || CUT_BEFORE.test(label)) return true;
  // One lower-case word that is an adjective or adverb ("sudden", "efficient", "theoretical") names no thing.
  if (/^[a-z]+$/.test(label) && (ADJECTIVE_ENDING.test(label) || ADJECTIVES.test(label))) return true;
  // A purpose or a particle cut out of a verb phrase ("applied to modify", "poured out", "applied parallel").
  if (PURPOSE_VERB.test(label) || PARTICLE.test(label)) return true;
  if (/^[^\p{L}\p{N}([]/u.test(label) || /[=•φ]/.test(label)) return true;
  // Brackets that do not pair ("USA)", "(6.08") are cut out of an aside.
  if ((label.match(/\(/g)?.length ?? 0) !== (label.match(/\)/g)?.length ?? 0)) return true;
  if (e.kind !== 'value' && /^[\d.,\s–-]+(?:[A-Za-z°%µ/^]+)?$/.test(label)) return true;
  return label.split(/\s+/).length > 8;
}

const NEGATION = /\b(?:not|no|never|cannot|no longer|hardly|barely|neither|nor)\b|n't\b/i;
// "It is unlikely that spark cutting produces pure Zr", "whether X causes Y": a claim the sentence does not make.
const HEDGED_BEFORE = /\b(?:unlikely|whether|if|unless|doubtful)\b[^.;]*$/i;
const NEGATED_BEFORE = /\b(?:no|not|without|neither|nor|never|hardly|barely)\s+(?:\w+\s+){0,2}$/i;

/**
 * The value of a has_property claim, whichever reader made it (prose tuples, performance records): a value there
 * is, not a processing temperature or pressure, and within what the property can be.
 */
export function plausibleValue(t: TupleDraft): boolean {
  if (t.relation !== 'has_property') return true;
  if (t.value === null) return false;
  // Temperature and pressure in prose are what a sample was held at ("grown under 0.2 MPa", "up to 30.7 GPa").
  if (t.object.key === 'p:temperature' || t.object.key === 'p:pressure') return false;
  // Within what the property can be (its lexicon range): "band gap −5.35 eV" is a HOMO level read as a gap, and
  // "reacted at 1200 °C … onset of superconductivity" a processing temperature read as a Tc.
  const range = t.object.key.startsWith('p:') ? propertyEntry(t.object.key.slice(2))?.range : undefined;
  if (range?.min !== undefined && (t.value ?? 0) < range.min) return false;
  if (range?.max !== undefined && (t.valueMax ?? t.value ?? 0) > range.max) return false;
  return true;
}

export function plausibleProseTuple(t: TupleDraft): boolean {
  if (fragmentOf(t.subject) || fragmentOf(t.object) || trivialEnd(t.subject) || trivialEnd(t.object)) return false;
  // Made by a material (a precursor is no method), or a property "made" ("resistance values obtained via EIS").
  if (MAKING.test(t.relation) && (t.subject.kind === 'property' || findProperties(t.subject.surface).length > 0 || t.object.kind === 'material')) return false;
  // "observed at room temperature" read as "at temperature": a place or condition that is a bare property says nothing.
  if (/_at$/.test(t.relation) && t.object.kind === 'property' && t.value === null) return false;
  if (!plausibleValue(t)) return false;
  if (t.referenceRelation === 'measured_at' && t.referenceNode) {
    const q = parseQuantities(t.referenceNode)[0];
    if (!q || !CONDITION_DIMENSIONS.has(q.dimension)) return false;
  }
  if (t.relation === 'has_property' && (t.subject.kind === 'property' || /\b(?:values?|while|between|range)\b/i.test(t.object.surface))) return false;
  if (t.sentence) {
    const at = t.sentence.indexOf(t.subject.surface);
    if (at > 0 && (NEGATED_BEFORE.test(t.sentence.slice(Math.max(0, at - 30), at)) || HEDGED_BEFORE.test(t.sentence.slice(0, at)))) return false;
    // "The lattice parameter did not show …", "N atoms are not involved in …": the claim between them is denied.
    const to = at >= 0 ? t.sentence.indexOf(t.object.surface, at + t.subject.surface.length) : -1;
    if (to > at && NEGATION.test(t.sentence.slice(at + t.subject.surface.length, to))) return false;
  }
  return true;
}

/** Text of the rules, for the graph extractor's version stamp (a change re-extracts every paper). */
export const plausibleRulesSource = (): string =>
  [
    FRAGMENT.source,
    CUT_AFTER.source,
    CUT_BEFORE.source,
    ADJECTIVE_ENDING.source,
    ADJECTIVES.source,
    PURPOSE_VERB.source,
    PARTICLE.source,
    NEGATION.source,
    HEDGED_BEFORE.source,
    ATMOSPHERE.source,
    MAKING.source,
    [...CONDITION_DIMENSIONS].join(','),
    NEGATED_BEFORE.source,
    TRIVIAL_HEAD.source,
    VAGUE_MODIFIER.source,
    VERB_END.source,
    TREATMENT_ING.source,
    CUT_END.source,
    trivialEnd.toString(),
    fragmentOf.toString(),
    plausibleValue.toString(),
    plausibleProseTuple.toString(),
  ].join('\n');
