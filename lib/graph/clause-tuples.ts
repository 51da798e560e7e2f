import { lookupUnit, parseQuantities } from '../structure/quantities.ts';
import { findProperties } from '../structure/properties.ts';
import { splitSentences } from '../structure/sentences.ts';
import { joinBrokenWords } from '../structure/terms.ts';
import { draft, guardedPhraseEntity, materialEntity, propertyEntity, valueEntity, type EntityRef, type TupleDraft } from './tuples.ts';

/**
 * Subject–predicate–object tuples from the structure of every sentence (method B's tuples from prose): a small
 * chunker splits each clause into noun phrases and the verb group or preposition between them, and each
 * (subject phrase, verb [+ preposition], object phrase [, preposition + phrase]) becomes a tuple. Phrases go
 * through the material, property and quantity normalisers; a predicate that fits a relation type becomes it
 * (shows a power density of … → has_property with the value, synthesized from → synthesized_from, annealed at →
 * processed_at …), others stay verb-phrase relations ("fabricate_on"). Causal verbs are left to the stricter
 * causal patterns in tuples.ts.
 *
 * Why not a full tagger: compromise tags about 80k characters a second on this machine, so the shared corpus
 * (8.5 M characters) would take about 110 s; the graph must build in well under 30 s. Scientific prose has a
 * small set of closed-class words and a recognisable verb vocabulary, which is all a clause chunker needs.
 */

type Tag = 'det' | 'prep' | 'conj' | 'pron' | 'aux' | 'adv' | 'verb' | 'punct' | 'word';

interface Token {
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

const VERB_FORMS: Map<string, string> = (() => {
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

/** Verbs that take a preposition as part of the predicate ("consist of", "doped with", "grown on"). */
const PARTICLE = /^(?:of|with|on|onto|as|from|into|to|in|by|via|at|for)$/;

const SYNTHESIS_VERBS = /^(?:synthesi[sz]e|prepare|fabricate|make|produce|obtain)$/;

/** Typed relations for verb lemmas (with the preposition that follows, when it matters). */
function typedRelation(lemma: string, prep: string | null, object: EntityRef, hasValue: boolean, subject: EntityRef): string | null {
  if (SYNTHESIS_VERBS.test(lemma)) {
    if (prep === 'from' || prep === 'using') return object.kind === 'material' ? 'synthesized_from' : null;
    if ((prep === 'by' || prep === 'via') && object.kind !== 'material') return 'synthesized_by';
  }
  if (lemma === 'dope' && prep === 'with') return 'doped_with';
  if (/^(?:grow|deposit|coat|sputter|print|cast)$/.test(lemma) && (prep === 'on' || prep === 'onto')) return 'grown_on';
  if (/^(?:sinter|anneal|calcine|heat|dry|treat|fire|cool|quench)$/.test(lemma) && (prep === 'at' || prep === 'for') && hasValue) return 'processed_at';
  if (/^(?:use|employ|apply|select|choose|utili[sz]e|serve|act|function)$/.test(lemma) && prep === 'as') return 'used_as';
  if (/^(?:consist|compose|comprise)$/.test(lemma) && (prep === 'of' || prep === null)) return 'part_of';
  if (
    subject.kind !== 'value' &&
    prep === null &&
    (object.kind === 'property' || (hasValue && subject.kind === 'property')) &&
    /^(?:show|exhibit|display|demonstrate|reveal|possess|have|achieve|reach|attain|deliver|yield|give|provide|produce|obtain|record|measure|observe|find|report|exceed|surpass|maintain|retain|remain|be|present|offer)$/.test(
      lemma,
    )
  )
    return 'has_property';
  return null;
}

/** Verbs whose base and -s forms are nouns as often ("tests", "yield", "transport"). */
const NOUN_TOO =
  /^(?:test|study|yield|heat|transport|form|support|load|spin|work|use|cast|dry|press|print|mill|coat|report|record|measure|increase|decrease|rise|drop|decline|result|cause|lead|present|display|offer|function|act|treat|fire|cool|filter|wash|mix|deposit|convert|link|grind|quench|dope|find|process|precipitate|show|remain|aim|need|effect|change|control|order|range|level|scale|phase|design|limit|image|model|cost)$/;

const CAUSAL_VERBS = /^(?:increase|decrease|improve|enhance|reduce|lower|raise|boost|suppress|promote|facilitate|inhibit|lead|result|cause|induce)$/;

const BRACKETED_FORMULA = /^\((?=[^)]*[A-Z])[A-Za-z0-9,.-]+\)[\d.]*[A-Z(]/;

/** Words of a sentence with their classes; parentheticals ("(YSZ)", "(see Fig. 2)") and citations are skipped. */
function tokenize(sentence: string): Token[] {
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

function classify(text: string, start: number): Token {
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

interface Phrase {
  text: string;
  start: number;
  /** Index of the phrase's last token, so what attaches after it can be found. */
  to: number;
}

/** A noun phrase starting at token i: words (and -ing/-ed modifiers between words), determiners dropped. */
function nounPhrase(tokens: Token[], i: number, sentence: string, limit = tokens.length): Phrase | null {
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
function ofTail(tokens: Token[], p: Phrase, sentence: string): Phrase | null {
  const k = p.to + 1;
  return tokens[k]?.tag === 'prep' && tokens[k].text.toLowerCase() === 'of' ? nounPhrase(tokens, k + 1, sentence) : null;
}

interface ObjectSide {
  entity: EntityRef;
  surface: string;
  value: { value: number; valueMax: number; unit: string } | null;
  end: number;
  /** A portion of a substance ("2 g of X", "0.2 M X"): its value is the amount, and a list may follow. */
  portion: boolean;
}

/** The object of a predicate: a material, a property (with the value "of …" gives it), a quantity, or a concept. */
function objectSide(tokens: Token[], at: number, sentence: string): ObjectSide | null {
  const np = nounPhrase(tokens, at, sentence);
  if (!np) return null;
  const of = ofTail(tokens, np, sentence);
  const whole = of ? sentence.slice(np.start, of.start + of.text.length) : np.text;
  const q = parseQuantities(whole)[0];
  const value = q?.canonical.length ? { value: Math.min(...q.canonical), valueMax: Math.max(...q.canonical), unit: q.canonicalUnit } : null;
  const prop = findProperties(np.text)[0];
  let entity: EntityRef | null;
  const contained = containedMaterial(np, of) ?? portionMaterial(np.text);
  if (contained) entity = contained;
  else if (prop) entity = propertyEntity(prop.key, np.text);
  else if (q && q.start === 0) entity = valueEntity(q.dimension, q.canonical, q.canonicalUnit, q.text);
  else entity = clauseEntity(np.text);
  if (!entity) return null;
  return { entity, surface: whole, value, end: of ? of.to : np.to, portion: contained !== null };
}

// Words for a portion or a preparation of a substance: "an aqueous solution of NaBH4", "2 g of PVP", "a mixture of
// La2O3 and CuO" are about the substance.
const CONTAINER =
  /(?:^|\s)(?:solutions?|suspensions?|dispersions?|mixtures?|slurr(?:y|ies)|amounts?|quantit(?:y|ies)|portions?|aliquots?|[nµμm]?[gLl]|m[Ll]|mmol|mol)$/;

/** The material of "a solution of X" / "2 g of X", or null when the phrase is not such a portion. */
function containedMaterial(phrase: Phrase, of: Phrase | null): EntityRef | null {
  if (!of || !CONTAINER.test(phrase.text)) return null;
  const inner = clauseEntity(of.text);
  return inner && isNamedMaterial(inner) ? inner : null;
}

// An amount written before a substance: "0.2 M Co(NO3)2", "3.08 g nickel(II) acetylacetonate", "0.5 mmol of NiCl2".
const AMOUNT_BEFORE = /^(?:[~≈∼]\s*)?\d+(?:\.\d+)?\s*(?:[mµμn]?mol|[mµμ]?M|[mµμk]?g|[mµμ]?[lL]|(?:wt|vol|mol|at)\.?\s*%)(?:\s+of)?\s+(?=\S)/;

/**
 * The substance of "0.2 M X" / "3 g X", or null when the phrase is not an amount of something. What is weighed or
 * dosed is a substance even when the lexicon lacks its name ("1.26 g diethanolamine"), so it may start a list.
 */
function portionMaterial(text: string): EntityRef | null {
  const amount = AMOUNT_BEFORE.exec(text);
  const inner = amount ? clauseEntity(text.slice(amount[0].length)) : null;
  return inner && (inner.kind === 'material' || inner.kind === 'concept') ? inner : null;
}

/** A material the normalisers know as such: a formula or a lexicon material, not a folded name. */
const isNamedMaterial = (e: EntityRef) => e.kind === 'material' && (e.key.startsWith('f:') || e.key.startsWith('m:'));

/** The phrase's entity when it is a named material. */
function namedMaterial(text: string): EntityRef | null {
  const e = clauseEntity(text);
  return e && isNamedMaterial(e) ? e : null;
}

/**
 * Further materials listed after a phrase ending at token `end` ("SrCO3, TiO2, and Nb2O5"): each is its own
 * object of the same predicate. Only lists of named materials are followed, so "of BZY and a high density" stays one.
 */
function listedAfter(tokens: Token[], end: number, sentence: string): { entity: EntityRef; end: number }[] {
  const out: { entity: EntityRef; end: number }[] = [];
  let j = end + 1;
  for (;;) {
    let k = j;
    if (tokens[k]?.text === ',') k++;
    if (tokens[k]?.tag === 'conj' && /^(?:and|or)$/i.test(tokens[k].text)) k++;
    if (k === j) break;
    const np = nounPhrase(tokens, k, sentence);
    const entity = np ? (portionMaterial(np.text) ?? namedMaterial(np.text)) : null;
    if (!np || !entity) break;
    out.push({ entity, end: np.to });
    j = np.to + 1;
  }
  return out;
}

/** Materials listed before the subject phrase starting at token `first` ("RuCl3, PVP and NaBH4 were dissolved"). */
function listedBefore(tokens: Token[], first: number, sentence: string): EntityRef[] {
  const out: EntityRef[] = [];
  let j = first - 1;
  for (;;) {
    let k = j;
    if (tokens[k]?.tag === 'conj' && /^(?:and|or)$/i.test(tokens[k].text)) k--;
    if (tokens[k]?.text === ',') k--;
    if (k === j || tokens[k]?.tag !== 'word') break;
    let s = k;
    while (s > 0 && (tokens[s - 1].tag === 'word' || tokens[s - 1].tag === 'det')) s--;
    const np = nounPhrase(tokens, s, sentence, k + 1);
    const entity = np && np.to === k ? (portionMaterial(np.text) ?? namedMaterial(np.text)) : null;
    if (!entity) break;
    out.push(entity);
    j = s - 1;
  }
  return out;
}

/** The subject of the verb group at index v: the clause's first noun phrase that is not a preposition's object. */
function subjectOf(tokens: Token[], v: number, sentence: string, participle: boolean): { phrase: Phrase; of: Phrase | null } | null {
  if (participle) {
    // "the film deposited on YSZ": a reduced relative's subject is the phrase right before it.
    let k = v - 1;
    while (k >= 0 && tokens[k].tag === 'word') k--;
    if (k === v - 1 || (k >= 0 && tokens[k].tag === 'prep')) return null;
    let s = k + 1;
    if (k >= 0 && tokens[k].tag === 'det') s = k;
    const np = nounPhrase(tokens, s, sentence, v);
    return np && np.to === v - 1 ? { phrase: np, of: null } : null;
  }
  let boundary = v - 1;
  while (boundary >= 0) {
    // Walk back to the start of this clause: sentence start, a clause punctuation mark, or a conjunction.
    let b = boundary;
    while (b >= 0 && tokens[b].tag !== 'punct' && tokens[b].tag !== 'conj') b--;
    for (let k = b + 1; k <= boundary; k++) {
      const t = tokens[k];
      if (t.tag === 'pron' || t.tag === 'verb' || t.tag === 'aux') return null;
      if (t.tag === 'word' || t.tag === 'det') {
        if (k > 0 && tokens[k - 1].tag === 'prep') {
          while (k <= boundary && (tokens[k].tag === 'word' || tokens[k].tag === 'det')) k++;
          k--;
          continue;
        }
        const np = nounPhrase(tokens, k, sentence, v);
        return np ? { phrase: np, of: ofTail(tokens, np, sentence) } : null;
      }
    }
    // Nothing in this segment ("X, which was made of Y, shows" or a leading "In this work,"): the one before.
    if (b < 0 || tokens[b].text === ';') return null;
    boundary = b - 1;
  }
  return null;
}

const SUBJECT_STOP =
  /^(?:sample|samples|result|results|data|value|values|inset|panel|curve|curves|line|lines|peak|peaks|spectrum|spectra|image|images|pattern|patterns)$/i;
// Pointers into the paper ("Figure 7d", "Table 2", "Eq. (3)") and section numbers are not things the paper is about.
const POINTER =
  /\b(?:fig|figs|figure|figures|table|tables|eq|eqs|equation|equations|scheme|ref|refs|section|supplementary|supporting|appendix)\b|^\d+\s+[A-Z]/i;

/** guardedPhraseEntity, minus figure and table pointers and asides. */
// A phrase's asides ("SrTiO3 (5 mol%)", "NaBH4 (0.1 M, 19.0 mL)") are skipped by the chunker but inside its span;
// they are not part of the name. A formula's own brackets ("Co(NO3)2") follow no space and stay.
const clauseEntity = (text: string): EntityRef | null => (POINTER.test(text) ? null : guardedPhraseEntity(text.replace(/\s+\([^()]*\)/g, '')));

/**
 * A passive with its goal fronted and its subject after the verb: "To the solution of A were added B and C", "Into
 * the flask was introduced 2 g of X" — the moved substances are the subject, the fronted phrase the goal.
 */
function frontedPassive(tokens: Token[], sentence: string): { moved: EntityRef[]; relation: string; goal: EntityRef; value: ObjectSide['value'] } | null {
  let i = 0;
  while (tokens[i] && (tokens[i].tag === 'adv' || tokens[i].text === ',')) i++;
  const prep = tokens[i]?.text.toLowerCase();
  if (tokens[i]?.tag !== 'prep' || !/^(?:to|into|onto|in)$/.test(prep)) return null;
  const goal = objectSide(tokens, i + 1, sentence);
  let v = (goal?.end ?? tokens.length) + 1;
  if (tokens[v]?.text === ',') v++;
  if (!goal || tokens[v]?.tag !== 'aux') return null;
  while (tokens[v]?.tag === 'aux' || tokens[v]?.tag === 'adv') v++;
  const verb = tokens[v];
  if (verb?.tag !== 'verb' || verb.text === verb.lemma || /ing$/.test(verb.text)) return null;
  const first = objectSide(tokens, v + 1, sentence);
  if (!first || first.entity.kind === 'value' || first.entity.kind === 'property') return null;
  const moved = [first.entity, ...(isNamedMaterial(first.entity) || first.portion ? listedAfter(tokens, first.end, sentence).map((m) => m.entity) : [])];
  return { moved, relation: `${verb.lemma}_${prep}`, goal: goal.entity, value: first.value };
}

/** Clause tuples of one sentence (offsets relative to the paragraph through `offset`). */
function sentenceClauseTuples(original: string, offset: number, end: number, paragraphId: string | null): TupleDraft[] {
  // Words split at a PDF line break ("superconduct- ing") are read as one; the stored sentence keeps them as written.
  const sentence = joinBrokenWords(original);
  const tokens = tokenize(sentence);
  const out: TupleDraft[] = [];
  const src = { paragraphId, sentence: original.trim(), start: offset, end };
  const fronted = frontedPassive(tokens, sentence);
  if (fronted)
    for (const [n, m] of fronted.moved.entries()) {
      if (m.key === fronted.goal.key) continue;
      const value = n === 0 ? fronted.value : null;
      out.push(
        draft({
          subject: m,
          relation: fronted.relation,
          object: fronted.goal,
          value: value?.value ?? null,
          valueMax: value?.valueMax ?? null,
          unit: value?.unit ?? null,
          ...src,
        }),
      );
    }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    // A verb group: auxiliaries and adverbs, then a verb; or a copula followed by a phrase ("the conductivity was 0.1 S cm−1").
    let v = -1;
    let lemma = '';
    let participle = false;
    if (t.tag === 'verb') {
      // A verb right after a phrase with no auxiliary is finite ("shows") or a reduced relative ("deposited on").
      let p = i - 1;
      while (p >= 0 && tokens[p].tag === 'adv') p--;
      const prev = tokens[p];
      const passive = prev?.tag === 'aux';
      if (!passive && prev?.tag !== 'word') continue;
      const next = tokens[i + 1];
      const pastForm = /(?:ed|en|wn|ade|und|ept|led)$/.test(t.text) && t.text !== t.lemma;
      // "the Ag loaded Ga2O3", "a fully grown film": a participle directly before a noun modifies it.
      if (!passive && pastForm && next?.tag === 'word' && !/^[\d~≈<>]/.test(next.text)) continue;
      // "fatigue tests due to", "high yields of", "oxygen transport kinetics": a word that is also a noun is a
      // verb only when a determiner or a number starts its object.
      if (!passive && !pastForm && NOUN_TOO.test(t.lemma!) && !(next?.tag === 'det' || /^[\d~≈<>]/.test(next?.text ?? ''))) continue;
      v = i;
      lemma = t.lemma!;
      participle = !passive && pastForm && next?.tag === 'prep';
    } else if (t.tag === 'aux' && t.lemma === 'be' && (tokens[i + 1]?.tag === 'word' || tokens[i + 1]?.tag === 'det') && tokens[i - 1]?.tag === 'word') {
      v = i;
      lemma = 'be';
    } else continue;
    if (CAUSAL_VERBS.test(lemma) || /ing$/.test(t.text)) continue;
    // Where the verb group ends: a particle preposition joins the predicate.
    let k = v + 1;
    while (tokens[k]?.tag === 'adv') k++;
    let prep: string | null = null;
    if (tokens[k]?.tag === 'prep' && PARTICLE.test(tokens[k].text.toLowerCase())) {
      prep = tokens[k].text.toLowerCase();
      k++;
    } else if (tokens[k]?.tag !== 'word' && tokens[k]?.tag !== 'det') continue;
    const subj = subjectOf(tokens, v, sentence, participle);
    if (!subj || SUBJECT_STOP.test(subj.phrase.text.replace(/^(?:the|a|an|all|both|each) /i, ''))) continue;
    // "prepared by dissolving A and B in water": the means is a gerund, and its object is what the predicate is about.
    const gerund = (prep === 'by' || prep === 'via') && tokens[k]?.tag === 'verb' && /ing$/.test(tokens[k].text) ? tokens[k].lemma! : null;
    const object = objectSide(tokens, gerund ? k + 1 : k, sentence);
    if (!object) continue;
    // "the conductivity of BZY is 0.01 S/cm", "the power density of the cell reached …": the property's owner is the subject.
    const subjectPortion = containedMaterial(subj.phrase, subj.of) ?? portionMaterial(subj.phrase.text);
    let subject: EntityRef | null = subjectPortion ?? clauseEntity(subj.phrase.text);
    let objectEntity = object.entity;
    const subjectProperty = findProperties(subj.phrase.text)[0];
    if (subjectProperty && object.value && subj.of) {
      const owner = clauseEntity(subj.of.text);
      if (!owner) continue;
      subject = owner;
      objectEntity = propertyEntity(subjectProperty.key, subj.phrase.text);
    }
    if (!subject || subject.kind === 'value' || subject.key === objectEntity.key) continue;
    // "The power density was 450 mW cm−2" names no owner: a property does not have a property. propertyValueTuples
    // states the value with the owner the sentence gives, if any.
    if (subject.kind === 'property' && objectEntity.kind === 'value') continue;
    // What a product is made by treating ("obtained by calcining Y", "prepared by mixing A and B") is what it is made from.
    const typed = gerund
      ? SYNTHESIS_VERBS.test(lemma) && objectEntity.kind === 'material'
        ? 'synthesized_from'
        : null
      : typedRelation(lemma, prep, objectEntity, object.value !== null, subject);
    if (!typed && lemma === 'be' && !prep) continue; // "X is Y" without a property or value says little.
    const relation = typed ?? (gerund ? `${lemma}_${prep}_${gerund}` : prep ? `${lemma}_${prep}` : lemma);
    // Lists of materials on either side ("A, B and C were dissolved in water", "prepared from A, B, and C") give a
    // tuple for each member.
    const moreObjects = (isNamedMaterial(objectEntity) && !object.value) || object.portion ? listedAfter(tokens, object.end, sentence) : [];
    const firstToken = tokens.findIndex((x) => x.start === subj.phrase.start);
    const moreSubjects = (isNamedMaterial(subject) || subject === subjectPortion) && firstToken > 0 ? listedBefore(tokens, firstToken, sentence) : [];
    // A following preposition phrase is the condition ("at 550 °C", "in air") — method B's reference node.
    let refRelation: string | null = null;
    let refNode: string | null = null;
    const r = (moreObjects.at(-1)?.end ?? object.end) + 1;
    if (tokens[r]?.tag === 'prep' && /^(?:at|in|under|during|after|for|with|using|by)$/i.test(tokens[r].text)) {
      const ref = nounPhrase(tokens, r + 1, sentence);
      if (ref) {
        refRelation = relation === 'has_property' ? 'measured_at' : tokens[r].text.toLowerCase();
        refNode = ref.text;
      }
    }
    out.push(
      draft({
        subject,
        relation,
        object: objectEntity,
        referenceRelation: refRelation,
        referenceNode: refNode,
        value: object.value?.value ?? null,
        valueMax: object.value?.valueMax ?? null,
        unit: object.value?.unit ?? null,
        ...src,
      }),
    );
    for (const s of [subject, ...moreSubjects])
      for (const o of [objectEntity, ...moreObjects.map((m) => m.entity)]) {
        if ((s === subject && o === objectEntity) || s.key === o.key) continue;
        out.push(draft({ subject: s, relation, object: o, referenceRelation: refRelation, referenceNode: refNode, ...src }));
      }
  }
  return out;
}

const DEVICE =
  /\b(?:(?:single|fuel|solar|button|full|half|symmetric(?:al)?|tubular|micro-SOFC|SOFC|PCFC)\s+)?(?:cells?|films?|electrodes?|cathodes?|anodes?|catalysts?|photocatalysts?|devices?|membranes?|electrolytes?|composites?|coatings?|batter(?:y|ies)|superconductors?|crystals?)\b/gi;

/**
 * Capitalised abbreviations that are not materials: techniques, reference electrodes, reactions, quantities and
 * roman numerals. Every other abbreviation of two or more capitals ("PBFM", "LSM-YSZ", "Bi-2212") names what
 * the paper made or measured, which is what owns a value.
 */
const NOT_AN_OWNER =
  /^(?:XRD|SEM|FESEM|FE-SEM|TEM|HRTEM|HR-TEM|STEM|XPS|UPS|EIS|EDS|EDX|EDXS|EELS|AFM|STM|TGA|DSC|DTA|ICP|ICP-OES|ICP-MS|BET|BJH|FTIR|FT-IR|IR|UV|UV-vis|UV-Vis|NMR|DFT|GGA|PBE|LDA|CV|LSV|RHE|SHE|SCE|NHE|HER|OER|ORR|NRR|CO2RR|PL|XAS|XANES|EXAFS|SAED|FFT|RMS|DOS|PDOS|HOMO|LUMO|VB|CB|RT|AC|DC|ID|OD|ZFC|FC|TOF|TON|FE|FWHM|ECSA|ASR|OCV|OCP|PPD|MPD|SQUID|PPMS|ARPES|CCD|TPR|TPD|H2-TPR|XRF|SI|ESI|NIR|MS|GC|HPLC|CVD|PLD|ALD|SPS|PVD|LED|PCE|EQE|IQE|MPMS|SDW|CDW|HTT|LTO|LTT|STC|ESR|EPR|XAFS|SAXS|WAXS|GIWAXS|PXRD|HAADF|[IVX]+)$/;

/** Material mentions of a sentence: formulas, lexicon names and abbreviations, with offsets (not English words that parse as symbols). */
function materialMentions(sentence: string): { entity: EntityRef; start: number; end: number }[] {
  const out: { entity: EntityRef; start: number; end: number }[] = [];
  for (const m of sentence.matchAll(/[A-Za-z][A-Za-z0-9()[\]·.+\-−δ/:]*[A-Za-z0-9)\]δ]/g)) {
    // "ZnO)" at the end of an aside: an unbalanced closing bracket is the aside's, not the formula's.
    let text = m[0];
    while (/[)\]]$/.test(text) && (text.match(/[([]/g)?.length ?? 0) < (text.match(/[)\]]/g)?.length ?? 0)) text = text.slice(0, -1);
    // One capital with lower-case letters is a word ("In", "As"); a material token has a digit or two capitals.
    if (!/\d|[A-Z].*[A-Z]/.test(text) || POINTER.test(text) || NOT_AN_OWNER.test(text) || lookupUnit(text)) continue;
    const entity = materialEntity(text);
    // An unknown name counts only as an abbreviation of a material: three capitals ("PBFM", "LSM-YSZ") or a capital
    // and a number ("Bi-2212"), no lower-case run that makes it a word, and no ratio of symbols ("C/T", "M/H").
    if (
      entity.key.startsWith('n:') &&
      !(/^[A-Z0-9][A-Za-z0-9]*(?:[-+][A-Za-z0-9]+)*$/.test(text) && /(?:[A-Z][^A-Z]*){3}|[A-Z].*\d{2}/.test(text) && !/[a-z]{3}/.test(text))
    )
      continue;
    out.push({ entity, start: m.index, end: m.index + text.length });
  }
  return out;
}

/** Properties that are as often processing conditions as results. */
const GENERIC_PROPERTY = /^(?:temperature|duration|pressure|yield)$/;

// "in 5% H2", "under Ar", "using CH4 as fuel", "vs RHE": a material named as the atmosphere, fuel or reference.
const CONDITION_BEFORE = /\b(?:in|under|using|vs\.?|versus|against|flowing|humidified|wet|dry|pure)\s+(?:[\d.]+\s*(?:vol\.?\s*|mol\s*)?%\s*)?$/i;

// What links a property named in the sentence's own words to its value: "mobility of 3.4 cm2/Vs", "area = 12 cm2",
// "thickness ~40 μm", "content is 11 ppm".
const FREE_PROPERTY =
  /([A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*){0,2})\s*(?:\([^()]{1,20}\)\s*)?(?:\b(?:of|is|was|are|were|reached|reaches|exceeding|exceeds)\s+|[=:≈~∼]\s*)(?:(?:about|ca\.|approximately|around|nearly|only|up to|as (?:high|low) as)\s+)?[~∼≈]?\s*$/;
const FREE_PROPERTY_STOP =
  /\b(?:value|values|average|mean|range|total|maximum|minimum|order|factor|step|steps|ratio|amount|addition|presence|use|x|y|z|we|it|they|which|that|this|these|those|there|temperature|temperatures|time|times|rate of|is|was|are|were|the|a|an|at|in|on|by|for|with|to|from|and|or)$/i;

/** A property the sentence names just before a value, when the lexicon has none of that dimension there. */
function freeProperty(sentence: string, q: { start: number }): { text: string; start: number; end: number } | null {
  const m = FREE_PROPERTY.exec(sentence.slice(Math.max(0, q.start - 80), q.start));
  if (!m) return null;
  const words = m[1]
    .split(/\s+/)
    .filter(
      (w) =>
        !/^(?:the|a|an|its|their|high|low|higher|lower|large|small|good|excellent|remarkable|typical|measured|calculated|estimated|obtained|corresponding)$/i.test(
          w,
        ),
    );
  const head = words.at(-1);
  if (!head || FREE_PROPERTY_STOP.test(head) || !/^[a-z][a-z-]{2,}$/.test(head) || /(?:ed|ing|ly)$/.test(head) || VERB_FORMS.has(head)) return null;
  const text = words.slice(-2).join(' ');
  const start = Math.max(0, q.start - 80) + m.index + m[1].lastIndexOf(text);
  return { text, start, end: start + text.length };
}

/**
 * Values stated for a property anywhere in a sentence, whatever its grammar ("achieved high power density
 * (588 mW cm−2) at 500 °C", "a resistance of 5.6 Ωcm2 … for LSC", "LSC films are extraordinarily low (2.0 Ω cm2 …)"):
 * the quantity, the nearest property mention whose dimension it has (or, failing one, the noun the sentence
 * links to the value: "an electron mobility of 3.4 cm2/Vs"), the material the sentence says it is of ("for"/"of"
 * after the value, else the nearest before, never the atmosphere or reference), else the device it names ("the
 * cell"), else the one the paragraph was last about ("They show Tc = 9.6 K" after "Crystals of KOs2O6 were
 * grown."), and a temperature after it as the condition.
 */
function propertyValueTuples(sentence: string, offset: number, end: number, paragraphId: string | null, discourse: { owner: EntityRef | null }): TupleDraft[] {
  const stored = sentence.trim();
  const text = joinBrokenWords(sentence);
  const materials = materialMentions(text).filter((m) => !CONDITION_BEFORE.test(text.slice(Math.max(0, m.start - 24), m.start)));
  const quantities = parseQuantities(text);
  const properties = findProperties(text);
  const out: TupleDraft[] = [];
  for (const q of quantities) {
    if (!q.canonical.length) continue;
    let best: { key: string | null; text: string; start: number; end: number } | null = null;
    let bestGap = Infinity;
    for (const p of properties) {
      if (p.dimension !== q.dimension && p.dimension !== null) continue;
      const gap = p.end <= q.start ? q.start - p.end : p.start >= q.end ? 2 * (p.start - q.end) : Infinity;
      if (gap < bestGap && gap <= 120) [best, bestGap] = [p, gap];
    }
    // The noun linked to the value ("roughness (RMS) of 44 nm") beats a lexicon property further away ("pore size of
    // ~500 nm and surface roughness …"). Temperatures and times without a lexicon property are conditions ("at
    // 800 °C", "for 2 h"), not claims.
    if (q.dimension !== 'temperature' && q.dimension !== 'time') {
      const free = freeProperty(text, q);
      if (free && (!best || free.end > best.end || best.start >= q.end)) best = { key: null, ...free };
    }
    if (!best) continue;
    const after = materials.find((m) => m.start >= q.end && m.start - q.end <= 60 && /\b(?:for|of)\b/i.test(text.slice(q.end, m.start)));
    const before = materials.filter((m) => m.end <= Math.min(best.start, q.start)).at(-1);
    const inside = materials.find((m) => m.start >= best.end && m.end <= q.start);
    const named = (after ?? before ?? inside)?.entity;
    // The sentence's own noun is a property when it is essentially a property name ("thickness"), else a concept.
    const object = best.key ? propertyEntity(best.key, best.text) : guardedPhraseEntity(best.text, true);
    if (!object) continue;
    // A concept ("scale bar: 100 nm") needs a material the sentence names; a processing condition (a temperature, a
    // time, a pressure) does not pass to the material the paragraph last named ("heated at 160 °C for 1 h" is about
    // the autoclave, not the precursor before).
    const isProperty = object.kind === 'property';
    const measured = isProperty && !GENERIC_PROPERTY.test(object.key.slice(2));
    const device = isProperty ? [...text.slice(0, Math.max(best.start, q.start)).matchAll(DEVICE)].at(-1) : undefined;
    const owner = named ?? (device ? guardedPhraseEntity(device[0]) : null) ?? (measured ? discourse.owner : null);
    if (!owner || object.key === owner.key) continue;
    const condition =
      q.dimension !== 'temperature' ? quantities.find((c) => c.dimension === 'temperature' && c.start >= q.end && c.start - q.end <= 40) : undefined;
    out.push(
      draft({
        subject: owner,
        relation: 'has_property',
        object,
        referenceRelation: condition ? 'measured_at' : null,
        referenceNode: condition ? condition.text : null,
        value: Math.min(...q.canonical),
        valueMax: Math.max(...q.canonical),
        unit: q.canonicalUnit,
        paragraphId,
        sentence: stored,
        start: offset,
        end,
      }),
    );
  }
  // The paragraph is about the material this sentence names first (its subject), else still the one before.
  if (materials.length) discourse.owner = materials[0].entity;
  return out;
}

/** Clause tuples of every sentence of a paragraph (or caption). */
export function clauseTuples(text: string, paragraphId: string | null): TupleDraft[] {
  const out: TupleDraft[] = [];
  const discourse = { owner: null as EntityRef | null };
  for (const s of splitSentences(text)) {
    for (const t of sentenceClauseTuples(s.text, s.start, s.end, paragraphId)) out.push(t);
    for (const t of propertyValueTuples(s.text, s.start, s.end, paragraphId, discourse)) out.push(t);
  }
  return out;
}

/**
 * Text of every rule of this module, for the graph extractor's version stamp: a change to any of them re-extracts
 * every paper. `rules-source.test.ts` fails when a declaration of this module is missing here.
 */
export const clauseRulesSource = (): string =>
  [
    [...DETERMINERS, '|', ...PREPOSITIONS, '|', ...CONJUNCTIONS, '|', ...PRONOUNS, '|', ...AUXILIARIES, '|', ...COPULAS, '|', ...ADVERBS].join(' '),
    VERBS,
    JSON.stringify(IRREGULAR),
    JSON.stringify(PARTICIPLES),
    JSON.stringify([...VERB_FORMS]),
    PARTICLE.source,
    typedRelation.toString(),
    NOUN_TOO.source,
    CAUSAL_VERBS.source,
    tokenize.toString(),
    classify.toString(),
    nounPhrase.toString(),
    ofTail.toString(),
    objectSide.toString(),
    CONTAINER.source,
    containedMaterial.toString(),
    AMOUNT_BEFORE.source,
    portionMaterial.toString(),
    isNamedMaterial.toString(),
    namedMaterial.toString(),
    BRACKETED_FORMULA.source,
    listedAfter.toString(),
    listedBefore.toString(),
    subjectOf.toString(),
    SUBJECT_STOP.source,
    POINTER.source,
    clauseEntity.toString(),
    SYNTHESIS_VERBS.source,
    frontedPassive.toString(),
    sentenceClauseTuples.toString(),
    DEVICE.source,
    NOT_AN_OWNER.source,
    materialMentions.toString(),
    GENERIC_PROPERTY.source,
    CONDITION_BEFORE.source,
    FREE_PROPERTY.source,
    FREE_PROPERTY_STOP.source,
    freeProperty.toString(),
    propertyValueTuples.toString(),
    clauseTuples.toString(),
    // Normalisers the rules call (the quantity lexicon reaches the stamp through the record extractor's id).
    parseQuantities.toString(),
    lookupUnit.toString(),
    joinBrokenWords.toString(),
  ].join('\n');
