import { lookupUnit, parseQuantities } from '../structure/quantities.ts';
import { findProperties } from '../structure/properties.ts';
import { notAStatedValue, pastInequality, valueContextRulesSource } from '../structure/value-context.ts';
import { POINTER, VERB_FORMS } from './clause-chunker.ts';
import { joinBrokenWords, joinSplitFormulas, textFacets } from '../structure/terms.ts';
import { draft, guardedPhraseEntity, materialEntity, propertyEntity, type EntityRef, type TupleDraft } from './tuples.ts';

/**
 * Property–value tuples of prose (the second half of the clause reader, clause-tuples.ts): a value stated for a
 * property anywhere in a sentence, whatever its grammar, bound to the material the sentence says it is of.
 */

const DEVICE =
  /\b(?:(?:single|fuel|solar|button|full|half|symmetric(?:al)?|tubular|micro-SOFC|SOFC|PCFC)\s+)?(?:cells?|films?|electrodes?|cathodes?|anodes?|catalysts?|photocatalysts?|devices?|membranes?|electrolytes?|composites?|coatings?|batter(?:y|ies)|superconductors?|crystals?)\b/gi;

/**
 * Capitalised abbreviations that are not materials: techniques, reference electrodes, reactions, quantities and
 * roman numerals, and kinds of device ("SOFC", "TF-SOFCs", "PCC"): a device's value belongs to the material it is made
 * of. Every other abbreviation of two or more capitals ("PBFM", "LSM-YSZ", "Bi-2212") names what
 * the paper made or measured, which is what owns a value.
 */
const NOT_AN_OWNER =
  /^(?:XRD|SEM|FESEM|FE-SEM|TEM|HRTEM|HR-TEM|STEM|XPS|UPS|EIS|EDS|EDX|EDXS|EELS|AFM|STM|TGA|DSC|DTA|ICP|ICP-OES|ICP-MS|BET|BJH|FTIR|FT-IR|IR|UV|UV-vis|UV-Vis|NMR|DFT|GGA|PBE|LDA|CV|LSV|RHE|SHE|SCE|NHE|HER|OER|ORR|NRR|CO2RR|PL|XAS|XANES|EXAFS|SAED|FFT|RMS|DOS|PDOS|HOMO|LUMO|VB|CB|RT|AC|DC|ID|OD|ZFC|FC|TOF|TON|FE|FWHM|ECSA|ASR|OCV|OCP|PPD|MPD|SQUID|PPMS|ARPES|CCD|TPR|TPD|H2-TPR|XRF|SI|ESI|NIR|(?:(?:TF|IT|LT|HT|AS|ES|CS|MS|R|P|micro|µ)-?)?(?:SOFC|SOEC|SOC|PCFC|PCEC|PCC|PEMFC|PEFC|DMFC|MFC|AFC|MEA|LIB|SIB|PSC|DSSC|OLED|TFT|FET|MOSFET|TCO|MIEC)s?|MS|GC|HPLC|CVD|PLD|ALD|SPS|PVD|LED|PCE|EQE|IQE|MPMS|SDW|CDW|HTT|LTO|LTT|STC|ESR|EPR|XAFS|SAXS|WAXS|GIWAXS|PXRD|HAADF|FF|SRH|IPCE|BHJ|OFET|OTFT|[IVX]+)s?$/;

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

/**
 * The materials a sentence names as what it made or measured, with offsets: not the atmosphere, fuel or reference
 * ("in 5% H2", "vs RHE"). What a value can belong to.
 */
export function sentenceMaterials(text: string): { entity: EntityRef; start: number; end: number }[] {
  return materialMentions(text).filter((m) => !CONDITION_BEFORE.test(text.slice(Math.max(0, m.start - 24), m.start)));
}

const CLAUSE_BREAK = /;|,\s*(?:whereas|while|but|and)\b|\bwhereas\b|\bwhile\b/i;
// "under a current density of 200 mA cm−2", "at 0.25 A cm−2": a value the sample was held at, a test condition.
const HELD_AT = /\b(?:at|under)\s+(?:an?\s+|the\s+)?(?:[A-Za-z-]+\s+){0,3}(?:of\s+)?[~≈∼]?\s*$/i;
// "10.2 K, 14.8 K, and 18.5 K for pure, 0.6% and 2.1% C", "from ∼15 K to ∼30 K": one of a list of values that the
// sentence pairs by order with a list of owners, or a change from one to the other; the graph cannot tell which is
// whose. ("Tc = 5.4 K and 3.1 K" of one crystal stays.)
const LIST_JOIN = /^\s*(?:,\s*(?:and\s+)?|and\s+|or\s+|to\s+)[~≈∼]?\s*$/i;
const PAIRED_LIST = /^(?:[^.;]|\.\d){0,20}\b(?:for|of|in)\b(?:[^.;]|\.\d)*(?:,|\band\b)/i;
// The noun a value is linked to just before it: "fill factor of 41%", "AS thickness = 300 μm".
const LINKED_NOUN = /([A-Za-z][\w-]*)\s*(?:\([^()]{1,20}\)\s*)?(?:\bof|=|:)\s*[~≈∼]?\s*(?:(?:about|ca\.|approximately|around|nearly)\s+)?$/i;

const LASTING = /\b(?:stab\w*|durab\w*|operat\w*|lifetimes?|life|degrad\w*|retain\w*|retention)\b/i;

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
export function propertyValueTuples(
  sentence: string,
  offset: number,
  end: number,
  paragraphId: string | null,
  discourse: { named: EntityRef[] },
): TupleDraft[] {
  const stored = sentence.trim();
  const text = joinSplitFormulas(joinBrokenWords(sentence));
  const materials = sentenceMaterials(text);
  const quantities = parseQuantities(text);
  const properties = findProperties(text);
  const out: TupleDraft[] = [];
  const respectively = /\brespectively\b/i.test(text);
  // A sentence that names a material in words ("the Tc of tantalum") is about that one, not the paragraph's topic.
  // Read only when a value would otherwise pass to the topic: the graph build reads every sentence of the corpus.
  let namesOther: boolean | undefined;
  const namesOtherMaterial = () => (namesOther ??= materials.length === 0 && textFacets(text).formulas.length > 0);
  for (const q of quantities) {
    // A rate, a window, a property's argument, a change, a bound, a processing temperature (value-context.ts).
    if (!q.canonical.length || notAStatedValue(text, q)) continue;
    // A test condition is no result; temperatures are read as conditions anyway, save Tc ("superconductivity at 39 K").
    if (q.dimension !== 'temperature' && HELD_AT.test(text.slice(Math.max(0, q.start - 50), q.start))) continue;
    const sameKind = quantities.filter((o) => o !== q && o.dimension === q.dimension);
    // "A, B and C reach 1.1, 0.9 and 0.7 W cm−2, respectively": the values pair with the materials in order when
    // there are as many of each; otherwise which is whose cannot be told, and the value is left out.
    // A list in one quantity ("120, 45 and 300 S/cm") pairs value by value; separate quantities pair one each.
    let pairs: { owner: EntityRef | null; value: number; valueMax: number; at?: string }[] = [
      { owner: null, value: Math.min(...q.canonical), valueMax: Math.max(...q.canonical) },
    ];
    const listed = q.canonical.length > 1 && /,|\band\b/.test(q.text);
    // "2.3, 1.5 and 0.8 W cm−2 at 800, 700 and 600 °C, respectively": values against temperatures, one tuple over the
    // range with the temperatures as its condition (a tuple per temperature crowded graph retrieval: dev DOI@1
    // 0.783 → 0.764); the answers pair them (stated-values.ts).
    const temperatures =
      listed && respectively
        ? quantities.find((t) => t.dimension === 'temperature' && t.start > q.end && t.canonical.length === q.canonical.length)
        : undefined;
    if (temperatures) pairs = [{ ...pairs[0], at: temperatures.text }];
    else if ((sameKind.length || listed) && respectively) {
      const values = listed ? q.canonical : [q, ...sameKind].sort((x, y) => x.start - y.start);
      // The materials listed before the values, or, when the sentence names none ("They show Tc = 9.6, 6.3 and 3.3 K,
      // respectively"), those the sentence before listed.
      const listedBefore = materials.filter((m) => m.end <= (listed ? q.start : Math.min(q.start, ...sameKind.map((o) => o.start)))).map((m) => m.entity);
      const owners = materials.length === 0 ? discourse.named : listedBefore;
      if (owners.length !== values.length || new Set(owners.map((m) => m.key)).size !== owners.length) continue;
      pairs = listed
        ? q.canonical.map((v, i) => ({ owner: owners[i], value: v, valueMax: v }))
        : [{ ...pairs[0], owner: owners[(values as typeof quantities).indexOf(q)] }];
    }
    // "binding energies of 284.4, 285.3 and 287.2 eV" without "respectively": each value the owner's, not a range.
    if (listed && !temperatures && pairs.length === 1) pairs = q.canonical.map((v) => ({ owner: null, value: v, valueMax: v }));
    const list = [q, ...sameKind.filter((o) => LIST_JOIN.test(o.end <= q.start ? text.slice(o.end, q.start) : text.slice(q.end, o.start)))];
    if (list.length > 1) {
      const first = Math.min(...list.map((o) => o.start));
      const last = Math.max(...list.map((o) => o.end));
      if (/\bfrom\s*[~≈∼]?\s*$/i.test(text.slice(Math.max(0, first - 8), first)) || PAIRED_LIST.test(text.slice(last, last + 80))) continue;
    }
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
    if (pastInequality(text, best, q)) continue;
    // "a PCE of 3.16%, a Jsc of 9.61 mA/cm2 … and fill factor of 41%": past another value, a value linked to a noun of
    // its own ("factor of") is that noun's, not the property's named before the list.
    const from = best.end;
    if (
      from <= q.start &&
      quantities.some((o) => o !== q && o.start >= from && o.end <= q.start) &&
      LINKED_NOUN.test(text.slice(Math.max(from, q.start - 60), q.start))
    )
      continue;
    // "372 mW/cm2, lower than that for a SOFC with SFCN": what the value is compared with does not own it.
    const after = materials.find((m) => m.start >= q.end && m.start - q.end <= 60 && /^(?!.*\bthan\b).*\b(?:for|of)\b/is.test(text.slice(q.end, m.start)));
    const before = materials.filter((m) => m.end <= Math.min(best.start, q.start)).at(-1);
    const inside = materials.find((m) => m.start >= best.end && m.end <= q.start);
    // "BSCF has a conductivity of 35 S/cm, whereas SCFO displays a σ of 48 S/cm": past a clause break the value
    // belongs to the material of its own clause, not to the one named with the property.
    const split = best.end <= q.start && CLAUSE_BREAK.test(text.slice(best.end, q.start));
    const named = (split ? (inside ?? after) : (after ?? before ?? inside))?.entity;
    // The sentence's own noun is a property when it is essentially a property name ("thickness"), else a concept.
    const object = best.key ? propertyEntity(best.key, best.text) : guardedPhraseEntity(best.text, true);
    if (!object) continue;
    // "after a 2hr reaction time": a duration is a process's (reacting, ageing, holding), not the material's, unless
    // the sentence says how long the material lasts ("stable for 500 h of operation").
    if (object.key === 'p:duration' && !LASTING.test(text)) continue;
    // A concept ("scale bar: 100 nm") needs a material the sentence names; a processing condition (a temperature, a
    // time, a pressure) does not pass to the material the paragraph last named ("heated at 160 °C for 1 h" is about
    // the autoclave, not the precursor before).
    const isProperty = object.kind === 'property';
    const measured = isProperty && !GENERIC_PROPERTY.test(object.key.slice(2));
    const device = isProperty ? [...text.slice(0, Math.max(best.start, q.start)).matchAll(DEVICE)].at(-1) : undefined;
    const topic = discourse.named[0];
    const owner = named ?? (device ? guardedPhraseEntity(device[0]) : null) ?? (measured && topic && !namesOtherMaterial() ? topic : null);
    const condition =
      q.dimension !== 'temperature' ? quantities.find((c) => c.dimension === 'temperature' && c.start >= q.end && c.start - q.end <= 40) : undefined;
    for (const pair of pairs) {
      const subject = pair.owner ?? owner;
      if (!subject || object.key === subject.key) continue;
      out.push(
        draft({
          subject,
          relation: 'has_property',
          object,
          referenceRelation: pair.at || condition ? 'measured_at' : null,
          referenceNode: pair.at ?? (condition ? condition.text : null),
          value: pair.value,
          valueMax: pair.valueMax,
          unit: q.canonicalUnit,
          paragraphId,
          sentence: stored,
          start: offset,
          end,
        }),
      );
    }
  }
  // The paragraph is about the material this sentence names first (its subject), else still the one before.
  if (materials.length) discourse.named = materials.map((m) => m.entity);
  return out;
}

/** Text of every rule of this module, for the graph extractor's version stamp (see clause-tuples.ts). */
export const propertyValueRulesSource = (): string =>
  [
    DEVICE.source,
    NOT_AN_OWNER.source,
    materialMentions.toString(),
    sentenceMaterials.toString(),
    GENERIC_PROPERTY.source,
    LASTING.source,
    valueContextRulesSource(),
    HELD_AT.source,
    LIST_JOIN.source,
    PAIRED_LIST.source,
    LINKED_NOUN.source,
    CLAUSE_BREAK.source,
    CONDITION_BEFORE.source,
    FREE_PROPERTY.source,
    FREE_PROPERTY_STOP.source,
    freeProperty.toString(),
    propertyValueTuples.toString(),
  ].join('\n');
