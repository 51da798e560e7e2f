/**
 * The clause chunker of the prose tuples (clause-tuples.ts): tokens with a closed-class tag or a verb lemma, and
 * noun phrases over them. Hand-made on purpose, and kept apart from the tuple rules so it can be tested and
 * replaced on its own: compromise (the maintained tagger this project depends on) is too slow for a graph build
 * and tags scientific prose worse on what the chunker needs (`npm run bench -- tagger` measures both on the
 * shared corpus). Scientific prose has a small set of closed-class words and a recognisable verb vocabulary, which
 * is all a clause chunker needs.
 */

export type Tag = 'det' | 'prep' | 'conj' | 'pron' | 'aux' | 'adv' | 'verb' | 'punct' | 'word';

export interface Token {
  text: string;
  start: number;
  tag: Tag;
  /** Base form for verbs ("exhibited" → "exhibit"). */
  lemma?: string;
}

const DETERMINERS = new Set('the a an this these those its their our his her each every all both such some any no another several various many few'.split(' '));
const PREPOSITIONS = new Set(
  'of in on at by with for from to into onto over under between through via during after before upon within without among across against toward towards above below versus vs than per as along around beyond near throughout'.split(
    ' ',
  ),
);
const CONJUNCTIONS = new Set(
  'and or but nor while whereas which that where when because although though since thus therefore hence however moreover furthermore whether if so then yet once until unless whose who whom'.split(
    ' ',
  ),
);
const PRONOUNS = new Set('we it they he she us them i you one ones itself themselves'.split(' '));
const AUXILIARIES = new Set('is are was were be been being has have had can could may might will would should must do does did shall'.split(' '));
const COPULAS = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being']);
const ADVERBS = new Set(
  'also not further still only well very much more less most least even just already again almost nearly rather quite respectively subsequently then first finally initially typically generally usually clearly significantly slightly successfully directly simultaneously here there dropwise overnight together afterwards'.split(
    ' ',
  ),
);

/** Verbs of scientific prose in their base form; their inflections are generated below. */
const VERBS =
  'show exhibit display demonstrate reveal indicate suggest confirm present possess have achieve reach attain deliver yield give provide produce obtain record measure observe detect find report exceed surpass outperform maintain retain remain keep offer enable allow ' +
  'increase decrease improve enhance reduce lower raise boost suppress promote facilitate inhibit affect influence depend correspond belong lead result cause induce ' +
  'synthesize synthesise prepare fabricate make form grow deposit coat sinter anneal calcine heat dry treat fire cool quench mix dissolve disperse add stir react convert transform decompose crystallize crystallise ' +
  'dope substitute incorporate contain consist comprise compose include involve use employ apply adopt select choose utilize utilise serve act function operate work ' +
  'support load immerse sputter spin print press cast mill grind wash filter centrifuge characterize characterise analyze analyse investigate study examine test evaluate compare ' +
  'undergo occur appear become emerge arise originate derive attribute ascribe assign relate link associate combine integrate embed connect ' +
  'decline drop rise degrade deteriorate stabilize stabilise activate catalyze catalyse adsorb absorb emit conduct transport migrate diffuse segregate precipitate';

/**
 * Verbs of experimental sections whose other forms are as often nouns or adjectives ("power supply", "charge
 * transfer", "in place of", "a dilute solution"): only their past participles are verbs ("were purchased from",
 * "was placed in", "were sealed in").
 */
const PARTICIPLES: Record<string, string> = Object.fromEntries(
  'purchased:purchase supplied:supply bought:buy received:receive diluted:dilute poured:pour placed:place sealed:seal soaked:soak dipped:dip sonicated:sonicate evaporated:evaporate collected:collect purified:purify introduced:introduce'
    .split(' ')
    .map((pair) => pair.split(':')),
);

const IRREGULAR: Record<string, string> = {
  made: 'make',
  grown: 'grow',
  grew: 'grow',
  found: 'find',
  given: 'give',
  gave: 'give',
  shown: 'show',
  led: 'lead',
  kept: 'keep',
  chosen: 'choose',
  chose: 'choose',
  undergone: 'undergo',
  underwent: 'undergo',
  arose: 'arise',
  arisen: 'arise',
  became: 'become',
  had: 'have',
  has: 'have',
  rose: 'rise',
  risen: 'rise',
  occurred: 'occur',
  occurs: 'occur',
  transferred: 'transfer',
  dropped: 'drop',
  ground: 'grind',
};

export const VERB_FORMS: Map<string, string> = (() => {
  const out = new Map<string, string>([...Object.entries(IRREGULAR), ...Object.entries(PARTICIPLES)]);
  for (const base of new Set(VERBS.split(/\s+/))) {
    out.set(base, base);
    const third = /(?:s|x|z|ch|sh)$/.test(base) ? `${base}es` : /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}ies` : `${base}s`;
    const past = base.endsWith('e') ? `${base}d` : /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}ied` : `${base}ed`;
    out.set(third, base);
    out.set(past, base);
    if (!out.has(`${base}ing`)) out.set(base.endsWith('e') ? `${base.slice(0, -1)}ing` : `${base}ing`, base);
  }
  return out;
})();

/** Verbs whose base and -s forms are nouns as often ("tests", "yield", "transport"). */
export const NOUN_TOO =
  /^(?:test|study|yield|heat|transport|form|support|load|spin|work|use|cast|dry|press|print|mill|coat|report|record|measure|increase|decrease|rise|drop|decline|result|cause|lead|present|display|offer|function|act|treat|fire|cool|filter|wash|mix|deposit|convert|link|grind|quench|dope|find|process|precipitate|show|remain|aim|need|effect|change|control|order|range|level|scale|phase|design|limit|image|model|cost)$/;

const BRACKETED_FORMULA = /^\((?=[^)]*[A-Z])[A-Za-z0-9,.-]+\)[\d.]*[A-Z(]/;

/** Words of a sentence with their classes; parentheticals ("(YSZ)", "(see Fig. 2)") and citations are skipped. */
export function tokenize(sentence: string): Token[] {
  const out: Token[] = [];
  let depth = 0;
  for (const m of sentence.matchAll(/\S+/g)) {
    let text = m[0];
    let start = m.index;
    // A parenthetical aside, or a bracketed citation, is not part of the clause; a formula that starts with a
    // bracket ("(NH4)2SO4", "(La,Sr)MnO3") is a word.
    if (depth > 0 || (/^[([]/.test(text) && !BRACKETED_FORMULA.test(text))) {
      depth += (text.match(/[([]/g)?.length ?? 0) - (text.match(/[)\]]/g)?.length ?? 0);
      if (depth <= 0) {
        depth = 0;
        const trail = /[,;:.]+$/.exec(text);
        if (trail) out.push({ text: trail[0][0], start: start + trail.index, tag: 'punct' });
      }
      continue;
    }
    const lead = /^["'“‘]+/.exec(text);
    if (lead) {
      text = text.slice(lead[0].length);
      start += lead[0].length;
    }
    // Trailing punctuation, except a formula's or a number's own dot ("0.5", "Fig.") — a sentence-final dot goes.
    const trail = /[,;:"'”’]+$|\.$/.exec(text);
    let punct: Token | null = null;
    if (trail && trail[0] !== text) {
      punct = { text: trail[0][0], start: start + trail.index, tag: 'punct' };
      text = text.slice(0, trail.index);
    }
    if (text) out.push(classify(text, start));
    if (punct) out.push(punct);
  }
  return out;
}

export function classify(text: string, start: number): Token {
  const lower = text.toLowerCase();
  if (/^[,;:.]$/.test(text)) return { text, start, tag: 'punct' };
  if (DETERMINERS.has(lower)) return { text, start, tag: 'det' };
  if (PREPOSITIONS.has(lower)) return { text, start, tag: 'prep' };
  if (CONJUNCTIONS.has(lower)) return { text, start, tag: 'conj' };
  if (PRONOUNS.has(lower)) return { text, start, tag: 'pron' };
  // Only the copula's lemma matters: "was 0.1 S cm−1" is a predicate of its own.
  if (AUXILIARIES.has(lower)) return { text, start, tag: 'aux', lemma: COPULAS.has(lower) ? 'be' : lower };
  if (ADVERBS.has(lower) || (lower.endsWith('ly') && lower.length > 4 && !/(?:poly|ply|anomaly|assembly|family|supply)$/.test(lower)))
    return { text, start, tag: 'adv' };
  const lemma = text === lower ? VERB_FORMS.get(lower) : undefined;
  if (lemma) return { text, start, tag: 'verb', lemma };
  return { text, start, tag: 'word' };
}

export interface Phrase {
  text: string;
  start: number;
  /** Index of the phrase's last token, so what attaches after it can be found. */
  to: number;
}

/** A noun phrase starting at token i: words (and -ing/-ed modifiers between words), determiners dropped. */
export function nounPhrase(tokens: Token[], i: number, sentence: string, limit = tokens.length): Phrase | null {
  let j = i;
  while (j < limit && tokens[j].tag === 'det') j++;
  // "a remarkably low resistance": an adverb before the phrase's words grades an adjective.
  // "highly pure SrCO3": so does one at the very start of the phrase.
  if (j + 1 < limit && tokens[j].tag === 'adv' && tokens[j + 1].tag === 'word') j++;
  const first = j;
  // A participle or gerund inside a phrase ("doped ceria", "mixed conductor", "sintering temperature") modifies the noun.
  while (
    j < limit &&
    (tokens[j].tag === 'word' || (tokens[j].tag === 'verb' && j + 1 < limit && tokens[j + 1].tag === 'word' && /(?:ed|ing)$/.test(tokens[j].text)))
  )
    j++;
  if (j === first || j - first > 8) return null;
  const last = tokens[j - 1];
  return { text: sentence.slice(tokens[first].start, last.start + last.text.length), start: tokens[first].start, to: j - 1 };
}

/** "the conductivity of BZY": the phrase an "of" right after a phrase attaches (for a property, what it is of). */
export function ofTail(tokens: Token[], p: Phrase, sentence: string): Phrase | null {
  const k = p.to + 1;
  return tokens[k]?.tag === 'prep' && tokens[k].text.toLowerCase() === 'of' ? nounPhrase(tokens, k + 1, sentence) : null;
}

// Pointers into the paper ("Figure 7d", "Table 2", "Eq. (3)") and section numbers are not things the paper is about.
export const POINTER =
  /\b(?:fig|figs|figure|figures|table|tables|eq|eqs|equation|equations|scheme|ref|refs|section|supplementary|supporting|appendix)\b|^\d+\s+[A-Z]/i;

/**
 * Text of every rule of the chunker, for the graph extractor's version stamp (clause-tuples.ts adds it to its own):
 * `rules-source.test.ts` fails when a declaration of this module is missing here.
 */
export const chunkerRulesSource = (): string =>
  [
    [...DETERMINERS, '|', ...PREPOSITIONS, '|', ...CONJUNCTIONS, '|', ...PRONOUNS, '|', ...AUXILIARIES, '|', ...COPULAS, '|', ...ADVERBS].join(' '),
    VERBS,
    JSON.stringify(IRREGULAR),
    JSON.stringify(PARTICIPLES),
    JSON.stringify([...VERB_FORMS]),
    NOUN_TOO.source,
    BRACKETED_FORMULA.source,
    tokenize.toString(),
    classify.toString(),
    nounPhrase.toString(),
    ofTail.toString(),
    POINTER.source,
  ].join('\n');
