import { boundedMemo } from '../common/bounded-memo.ts';
import { tagger } from './tagger.ts';
import { findTechniques } from '../structure/techniques.ts';
import { type Dimension, lookupUnit, type Quantity } from '../structure/quantities.ts';
import { findComparedProperties, findProperties, type PropertyMention, propertyEntry } from '../structure/properties.ts';
import { materialTerms } from './facets.ts';
import { formulaKey, plainTerms, textFacets } from '../structure/terms.ts';
import { findSpacedFormulas, tidyFormula } from '../structure/formula.ts';
import { findChemicalNames } from '../structure/chemical-names.ts';
import { type Reading, type ReaderSlots, readQuestion } from './reader.ts';

/**
 * What a question asks about, in the canonical terms the index uses: the materials (formulas and lexicon
 * keys, however written), the properties, the quantities in canonical units, a quoted paper title, whether it
 * wants a paper or a value, and for value questions the dimension of the value wanted.
 */
export interface QuestionAnalysis {
  question: string;
  /** The question without a quoted title, which is matched separately. */
  body: string;
  title: string | null;
  intent: 'which-paper' | 'value' | 'other';
  /** Canonical material terms (`f:` / `m:`). */
  materials: string[];
  /** Each material term as the question writes it ("MgB2" for `f:B2Mg`), for display. */
  materialNames: Record<string, string>;
  /** Formula-like words as written ("NiFeS/CoS", "Sr0.7Ho0.3CoO3-δ"), for the corpus presence check. */
  entityWords: string[];
  properties: string[];
  /** Where `body` names them ("maximum power output per unit area"), so word checks can leave the phrases out. */
  propertySpans: { start: number; end: number }[];
  quantities: Quantity[];
  askedDimension: Dimension | null;
  aboutSynthesis: boolean;
  /** Preparation techniques the question names (`lib/structure/techniques.ts`). */
  techniques: string[];
  /** What the question asks for, read from its construction (lib/retrieval/reader.ts). */
  reading: Reading;
}

// A quoted title however the question introduces it ("In “…”, …", "… does “…” use?", "… reported by “…”").
/**
 * Terms (of the plain analyzer) of a question's frame rather than of what it asks about: "Which paper describes …",
 * "How does … change …". Left out when a question's words are matched against sentences or papers.
 */
export const QUESTION_FRAME_TERMS = new Set(
  plainTerms(
    'which what why how does do did is are was were the a an that to or by paper study article work publication report reports reported ' +
      'describe describes discusses studies investigate investigates investigated find show shows doi title with for and of in on using used ' +
      'use value change affect ' +
      // Who reported it and how a question says so: verbs of reporting and the people who report are the question's
      // frame, never words a paper must use ("Which researchers observed …", "the study that mentions …").
      'found mention mentions mentioned observe observes observed demonstrate demonstrates demonstrated claim claims claimed ' +
      'present presents presented publish published author authors researcher researchers scientist scientists team ' +
      'note notes noted discuss discussed examine examines examined explore explores explored propose proposes proposed ' +
      'document documents documented provide provides provided give gives gave ' +
      // How a synthesis question is framed: "prepares X starting from A and B, using C as the solvent".
      'prepare prepares prepared synthesise synthesises synthesised synthesize synthesizes synthesized starting giving solvent',
  ),
);

const FUNCTION_TAGS = ['Adverb', 'Pronoun', 'Expression', 'Preposition', 'Determiner', 'Conjunction', 'Modal', 'QuestionWord', 'Auxiliary', 'Copula'];
const CONTENT_TAGS = ['Noun', 'Adjective', 'Acronym', 'Gerund', 'Participle'];
/** Words of units as people type them beside a number ("600 degrees", "0.4 amps per sq cm", "26.5 kelvin"). */
const UNIT_WORDS = new Set(
  plainTerms(
    'degree degrees deg celsius centigrade kelvin fahrenheit centimetre centimeter centimetres centimeters square sq cm cm2 cm² metre meter ' +
      'amp amps ampere amperes milliamp milliamps volt volts millivolt watt watts milliwatt milliwatts hour hours minute minutes mins second seconds ' +
      'temp gigapascal kilobar percent',
  ),
);

/**
 * The words of a question that say nothing about its subject: verbs of asking and telling ("recall", "reached",
 * "point", "gave"), adverbs, pronouns, courtesies ("please") — by compromise's part-of-speech tags, a gerund or
 * participle ("anchoring", "doped") staying a content word — and unit words. A question's rare filler would
 * otherwise weigh most in its distinctive words ("best paper never mentions centimetre, you, recall, roughly").
 */
export function fillerTerms(text: string): ReadonlySet<string> {
  // The tagger is most of an abstention check's time (5–7 ms a question): a question's text is tagged once, though
  // the term and subject checks both ask (lib/retrieval/gate/term-coverage.ts).
  return fillerCache(text);
}
const fillerCache = boundedMemo((text: string): ReadonlySet<string> => tagFiller(text), 1000);

function tagFiller(text: string): Set<string> {
  const out = new Set<string>();
  for (const sentence of tagger()(text).json() as { terms: { text: string; tags: string[] }[] }[])
    for (const [i, term] of sentence.terms.entries()) {
      const tags = term.tags;
      const functionWord = tags.some((t) => FUNCTION_TAGS.includes(t));
      // A past form before a noun describes it ("a sulfonated proton membrane"), where "reached roughly" tells.
      const beforeNoun = tags.includes('PastTense') && !!sentence.terms[i + 1]?.tags.includes('Noun');
      const verbOnly = tags.includes('Verb') && !tags.some((t) => CONTENT_TAGS.includes(t)) && !beforeNoun;
      const unit = plainTerms(term.text).some((t) => UNIT_WORDS.has(t)) || !!lookupUnit(term.text);
      if (functionWord || verbOnly || unit) for (const t of plainTerms(term.text)) out.add(t);
    }
  return out;
}

// What papers are called in the plural, references included ("I need all the references on …").
const PAPER_NOUNS = 'papers|studies|articles|publications|references|refs';
const PLURAL_PAPERS = new RegExp(
  `\\b(?:which|what)\\s+(?:other\\s+)?(?:${PAPER_NOUNS}|reports)\\b|\\b(?:list|find|name|show)\\s+(?:all\\s+)?(?:the\\s+)?(?:${PAPER_NOUNS})\\b|\\ball\\s+(?:the\\s+)?(?:${PAPER_NOUNS})\\b`,
  'i',
);

/** "Which papers …", "what studies …", "list the papers on …": every paper is asked for, not the best one. */
export const asksForPapers = (body: string): boolean => PLURAL_PAPERS.test(body);

/** How sure the reader must be of a comparison or a list of papers for its answer to take that shape without the wording rules. */
export const READ_SHAPE_PROBABILITY = 0.7;

/** A question for papers in the plural: by its wording ("which papers …"), or as the reader reads it ("all refs on …"). */
export const asksForPaperList = (analysis: Pick<QuestionAnalysis, 'body' | 'reading'>): boolean =>
  asksForPapers(analysis.body) || analysis.reading.probabilities['paper-list'] >= READ_SHAPE_PROBABILITY;

const TITLE = /["“«]([^"”»]{12,})["”»]/;
const WHICH_PAPER =
  /^\s*(?:which|what)\s+(?:paper|study|article|work|publication|report)s?\b|\b(?:find|identify|name)\s+(?:the|a)\s+(?:study|paper|article|work|publication)\b|\bwhich\s+(?:paper|study|article)\b|\b(?:doi|title|reference)\s+(?:of|for)\s+(?:the|a)\s+(?:paper|study|article|work|publication)\b/i;
// "How long / how much / how hot …" ask for a value; "How does … change …" asks how, not how much.
// "Below / up to / from what temperature …" ask for a value as "at what temperature" does.
const VALUE =
  /^\s*(?:what|(?:at|below|above|beyond|to|up to|until|from) what|for how|which value|how (?:long|much|many|hot|high|low|large|small|fast|thick|big))\b|\bwhat\s+(?:is|was|were|are)\b/i;
// "When does superconductivity set in …?": "when" asks for a temperature once the question names a property that is one.
const WHEN = /^\s*when\b/i;
// The question word after the clause that names the material: "…: how long was it heated", "…, how long stirred",
// "… - heated to what temperature", "…, what temperature".
const TRAILING_VALUE =
  /(?:[:;,]|\s[-–—])\s*(?:[a-z]+\s+){0,2}?(?:(?:at|to|below|above|up to|until|from)\s+)?(?:what\b|how (?:long|much|many|hot|high|low|large|small|fast|thick|big)\b)/i;
// A question that says how it asks: a question word anywhere, a yes/no opener, or a request for another kind of
// answer ("compare …", "explain …", "A vs B").
const SAYS_HOW =
  /\b(?:what|which|who|whom|whose|when|where|why|how|vs\.?|versus)\b|^\s*(?:is|are|was|were|does|do|did|can|could|has|have|should|would|will|compare|explain|describe|summari[sz]e|list|discuss|review|outline)\b/i;
// A note that names a property without asking for its value: how it acts ("thickness effect", "role of …"), or the
// paper that reports it ("… Tc 6.4 K paper", "the reference for the thermal conductivity of …").
const NOT_ITS_VALUE =
  /\b(?:effects?|influences?|roles?|impacts?|dependences?|mechanisms?|trends?|relationships?|correlations?|papers?|refs?|references?|sources?|manuscripts?|articles?|publications?|doi)\b/i;
const SYNTHESIS =
  /\b(?:synthesi[sz]\w*|prepar\w*|fabricat\w*|grown|made from|starting from|precursors?|calcin\w*|anneal\w*|sinter\w*|hydrothermal\w*|solvothermal)\b/i;
const ASKED: [RegExp, Dimension][] = [
  [
    /\bhow long\b|\bhow many (?:hours|h|minutes|mins?|days|seconds|s|weeks)\b|\bhow much time\b|\bduration\b|\b(?:\w+ing|reaction|dwell|residence) time\b/i,
    'time',
  ],
  [/\bwhat (?:\w+ )?temperature\b|\bat what temperature\b|\bhow hot\b|\b\w+(?:ing|ion) temperature\b/i, 'temperature'],
  [/\bwhat (?:\w+ )?pressure\b/i, 'pressure'],
  [/\bwhat (?:\w+ )?(?:concentration|molarity)\b/i, 'concentration'],
];
// Words that look like formulas but are units, roman numerals or sentence furniture.
const NOT_ENTITY = /^(?:[IVX]+|[A-Z]|mA|mV|mW|cm|nm|mm|µm|GPa|MPa|kPa|Pa|eV|meV|Tc|OER|HER|ORR|SOFC|SOFCs|RHE|SCE|DOI|XRD|SEM|TEM|BET)$/;

// How people say a value they recall loosely ("just over 500 mW/cm2", "in the region of 40 K", "~0.1 S/cm").
const APPROXIMATE =
  /(?:\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|close to|circa|ca\.|some|(?:just|slightly|a little|a bit) (?:over|under|above|below|more than|less than)|in the (?:region|order|range) of|on the order of|of the order of|somewhere around|or so)|[~∼≈])\s*$/i;
// Bounds written in words ("below 10 nm", "sub-10 nm", "more than 500 mW/cm2"). Not "under" or "over": "under
// 0.1 MPa O2" and "over 100 h" state conditions, not bounds.
const ABOVE = /\b(?:above|exceeding|exceeds?|more than|greater than|higher than|at least|beyond)\s*$/i;
const BELOW = /(?:\b(?:below|less than|lower than|at most|smaller than|up to)\s*|\bsub-\s?)$/i;

/** A material term as the question writes it ("Nb3Ge" for `f:GeNb3`), unless that word holds more ("LSCO/Ni" for Ni). */
export function writtenName(analysis: Pick<QuestionAnalysis, 'materialNames'>, term: string): string {
  const name = analysis.materialNames[term];
  return name && (!term.startsWith('f:') || formulaKey(tidyFormula(name)) === term.slice(2)) ? name : term.slice(2);
}

/**
 * Properties that name only a dimension ("temperature", "how long"): a question naming one of them beside a specific
 * property ("At what temperature does … become superconducting?") asks for the specific one.
 */
export const GENERIC_PROPERTIES: ReadonlySet<string> = new Set(['temperature', 'duration']);

/**
 * Properties a question asks about with a verb rather than the property's name: "At what temperature does MgB2
 * become superconducting?", "Below what temperature does Nb3Sn superconduct?" ask for a transition temperature, which
 * papers write as "Tc" or "critical temperature". Questions only, and kept here rather than in the property lexicon:
 * in a paper, "the film becomes superconducting" is narrative, and the lexicon's text stamps every paper's tuples.
 */
const VERBAL_PROPERTIES: [RegExp, string][] = [
  [/\b(?:becom(?:e|es|ing)|became|go(?:es)?|going|went|turns?|turning|turned|gets?|getting)\s+superconducting\b/gi, 'critical-temperature'],
  [/\bsuperconduct(?:s|ed)?\b/gi, 'critical-temperature'],
  [
    /\bsuperconductivity\s+(?:appears?|appeared|emerges?|emerged|sets?\s+in|occurs?|occurred|starts?|started|begins?|began|onsets?)\b/gi,
    'critical-temperature',
  ],
];

function findVerbalProperties(text: string): PropertyMention[] {
  return VERBAL_PROPERTIES.flatMap(([re, key]) =>
    [...text.matchAll(re)].map((m) => ({ key, text: m[0], start: m.index!, end: m.index! + m[0].length, dimension: propertyEntry(key)!.dimension })),
  );
}

export function analyseQuestion(question: string): QuestionAnalysis {
  const q = question.normalize('NFC').trim();
  const t = TITLE.exec(q);
  const title = t ? t[1].trim() : null;
  // The question without the title and the word that introduced it ("In", "from", "by").
  const body = t ? (q.slice(0, t.index).replace(/\b(?:in|from|of|by)\s*$/i, '') + q.slice(t.index + t[0].length)).replace(/^\s*,\s*/, '').trim() : q;
  const facets = textFacets(body);
  // "about 0.18 W/cm2", "roughly 40 K", "ca. 600 C": approximate values, matched with a tolerance.
  // "below 10 nm", "sub-10 nm", "at least 500 mW/cm2": bounds, met by any stated value within them.
  for (const quantity of facets.quantities) {
    if (quantity.comparator) continue;
    const before = body.slice(Math.max(0, quantity.start - 16), quantity.start);
    if (APPROXIMATE.test(before)) quantity.comparator = '~';
    else if (quantity.kind === 'single' && BELOW.test(before)) quantity.comparator = '<=';
    else if (quantity.kind === 'single' && ABOVE.test(before)) quantity.comparator = '>=';
  }
  const named = findProperties(body);
  const mentions = [
    ...named,
    ...[...findComparedProperties(body), ...findVerbalProperties(body)].filter((c) => !named.some((n) => c.start < n.end && c.end > n.start)),
  ].sort((a, b) => a.start - b.start);
  const properties = [...new Set(mentions.map((p) => p.key))];
  const asksWhenOfTemperature = WHEN.test(q) && mentions.some((m) => m.dimension === 'temperature' && !GENERIC_PROPERTIES.has(m.key));
  // Written as a note rather than a question ("Tc of Cd2Re2O7", "… Na-ion cathode, drying time?", "pore size of the
  // LSTN-YSZ layer in …"): a measured property named with no question word asks for its value.
  // A note that states a value of the property it names ("MgAlB2 Tc 12K Mg Al ordering") looks for the paper, not the value.
  const measured = named.filter((p) => p.dimension);
  const telegraphic =
    measured.length > 0 &&
    !SAYS_HOW.test(q) &&
    !NOT_ITS_VALUE.test(q) &&
    !asksForPapers(body) &&
    !facets.quantities.some((x) => measured.some((p) => p.dimension === x.dimension));
  const intent = WHICH_PAPER.test(q)
    ? 'which-paper'
    : title || VALUE.test(q) || TRAILING_VALUE.test(q) || asksWhenOfTemperature || telegraphic
      ? 'value'
      : 'other';
  let askedDimension: Dimension | null = null;
  if (intent === 'value') {
    askedDimension = ASKED.find(([re]) => re.test(body))?.[1] ?? null;
    if (!askedDimension) {
      for (const p of properties) {
        const d = propertyEntry(p)?.dimension;
        if (d && !GENERIC_PROPERTIES.has(p)) {
          askedDimension = d;
          break;
        }
      }
      askedDimension ??= properties.map((p) => propertyEntry(p)?.dimension ?? null).find(Boolean) ?? null;
    }
  }
  const spaced = findSpacedFormulas(body);
  // Words inside a spaced formula or a chemical name ("manganese(II) acetate") are not material words of their own,
  // nor is a value's unit however it is written ("120 mS cm−1", "0.3 mΩ cm2", "5 kW").
  const chemicalNames = findChemicalNames(body);
  const covered = [...spaced, ...chemicalNames, ...facets.quantities];
  const entityWords = [
    ...new Set(
      [...body.matchAll(/(?<![\w-])[([]?[\p{L}\p{N}][\p{L}\p{N}()[\]·•.+\-−–/@±]*[\p{L}\p{N})\]δ]/gu)]
        .filter((m) => !covered.some((f) => m.index! >= f.start && m.index! < f.end))
        .map((m) => balanceBrackets(m[0]))
        .concat(spaced.map((f) => f.joined))
        .filter((w) => /[A-Z]/.test(w) && (/\d/.test(w) || /[A-Z].*[A-Z]/.test(w) || /[a-z][A-Z]/.test(w)))
        // A unit however spelled ("mS/cm", "mW/cm2", "kJ/mol") is not a material.
        .filter((w) => !NOT_ENTITY.test(w) && !/^\d/.test(w) && !lookupUnit(w)),
    ),
  ];
  const slots: ReaderSlots = {
    body,
    title: !!title,
    materials: [...spaced, ...chemicalNames, ...entityWords.flatMap((w) => occurrences(body, w))],
    properties: mentions,
    quantities: facets.quantities,
  };
  const materialNames: Record<string, string> = {};
  for (const w of entityWords) {
    const f = textFacets(w);
    for (const key of materialTerms(f.formulas, f.materials)) materialNames[key] ??= w;
  }
  return {
    question: q,
    body,
    title,
    intent,
    materials: [...materialTerms(facets.formulas, facets.materials)],
    materialNames,
    entityWords,
    properties,
    propertySpans: mentions.map((m) => ({ start: m.start, end: m.end })),
    quantities: facets.quantities,
    askedDimension,
    aboutSynthesis: SYNTHESIS.test(body),
    techniques: findTechniques(body),
    reading: readQuestion(slots),
  };
}

/** The spans where `word` stands in `text` as a word of its own. */
function occurrences(text: string, word: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length)) out.push({ start: i, end: i + word.length });
  return out;
}

/** Drops brackets that do not pair up at the ends of a word ("PPh3)2]" → "PPh3)2" is left, "(NH2)2CS" kept). */
function balanceBrackets(w: string): string {
  let s = w;
  for (let changed = true; changed; ) {
    changed = false;
    const opens = (s.match(/[([]/g) ?? []).length;
    const closes = (s.match(/[)\]]/g) ?? []).length;
    if (closes > opens && /[)\]]$/.test(s)) {
      s = s.slice(0, -1);
      changed = true;
    } else if (opens > closes && /^[([]/.test(s)) {
      s = s.slice(1);
      changed = true;
    }
  }
  return s;
}
