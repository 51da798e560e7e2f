import { lookupUnit, parseQuantities } from '../structure/quantities.ts';
import { findProperties } from '../structure/properties.ts';
import { splitSentences } from '../structure/sentences.ts';
import { joinBrokenWords, joinSplitFormulas } from '../structure/terms.ts';
import { propertyValueTuples, propertyValueRulesSource } from './property-value-tuples.ts';
import { chunkerRulesSource, POINTER, NOUN_TOO, nounPhrase, ofTail, type Phrase, type Token, tokenize } from './clause-chunker.ts';
import { draft, guardedPhraseEntity, propertyEntity, valueEntity, type EntityRef, type TupleDraft } from './tuples.ts';

/**
 * Subject–predicate–object tuples from the structure of every sentence (method B's tuples from prose): a small
 * chunker splits each clause into noun phrases and the verb group or preposition between them, and each
 * (subject phrase, verb [+ preposition], object phrase [, preposition + phrase]) becomes a tuple. Phrases go
 * through the material, property and quantity normalisers; a predicate that fits a relation type becomes it
 * (shows a power density of … → has_property with the value, synthesized from → synthesized_from, annealed at →
 * processed_at …), others stay verb-phrase relations ("fabricate_on"). Causal verbs are left to the stricter
 * causal patterns in tuples.ts.
 * The tokens and noun phrases come from the chunker (clause-chunker.ts).
 */

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

const CAUSAL_VERBS = /^(?:increase|decrease|improve|enhance|reduce|lower|raise|boost|suppress|promote|facilitate|inhibit|lead|result|cause|induce)$/;

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
  const sentence = joinSplitFormulas(joinBrokenWords(original));
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
    // "A layered structure composed of CoO2 planes": the planes are part of the structure, not the other way round.
    const partOf = relation === 'part_of';
    out.push(
      draft({
        subject: partOf ? objectEntity : subject,
        relation,
        object: partOf ? subject : objectEntity,
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
        out.push(draft({ subject: partOf ? o : s, relation, object: partOf ? s : o, referenceRelation: refRelation, referenceNode: refNode, ...src }));
      }
  }
  return out;
}

/** Clause tuples of every sentence of a paragraph (or caption). */
export function clauseTuples(text: string, paragraphId: string | null): TupleDraft[] {
  const out: TupleDraft[] = [];
  // The materials the sentence before named: the first is the paragraph's topic, all of them a 'respectively' list.
  const discourse = { named: [] as EntityRef[] };
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
    chunkerRulesSource(),
    propertyValueRulesSource(),
    PARTICLE.source,
    typedRelation.toString(),
    CAUSAL_VERBS.source,
    objectSide.toString(),
    CONTAINER.source,
    containedMaterial.toString(),
    AMOUNT_BEFORE.source,
    portionMaterial.toString(),
    isNamedMaterial.toString(),
    namedMaterial.toString(),
    listedAfter.toString(),
    listedBefore.toString(),
    subjectOf.toString(),
    SUBJECT_STOP.source,
    clauseEntity.toString(),
    SYNTHESIS_VERBS.source,
    frontedPassive.toString(),
    sentenceClauseTuples.toString(),
    clauseTuples.toString(),
    // Normalisers the rules call (the quantity lexicon reaches the stamp through the record extractor's id).
    parseQuantities.toString(),
    lookupUnit.toString(),
    joinBrokenWords.toString(),
    joinSplitFormulas.toString(),
  ].join('\n');
