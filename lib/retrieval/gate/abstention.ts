import type { Evidence } from '../../evidence/model.ts';
import { round } from '../../common/trace.ts';
import { findChemicalNames } from '../../structure/chemical-names.ts';
import { tidyFormula } from '../../structure/formula.ts';
import { normaliseMaterial } from '../../structure/materials.ts';
import { embedQueries } from '../../embedding/embedder.ts';
import {
  type AbstentionModel,
  type AbstentionSignals,
  answerableProbability,
  contributions,
  DENSE_FEATURES,
  modelFor,
  shownConfidence,
} from './abstention-model.ts';
import { formulaKey, plainTerms, textFacets } from '../../structure/terms.ts';
import { facetCoverage, paperFacets, paperTechniques, specificProperties, statesValue, titleMaterials, titleQuantities } from '../coverage.ts';
import { differences, type FacetDifference, type FacetVerdicts, judgeValues, statedInstead, type UnverifiedFacet, unverifiedFacets } from './facet-verdicts.ts';
import { dopantPhrases, familyKnown, materialVerdicts, withoutDescriptor } from './material-match.ts';
import { compact, compactText, statedTerms } from '../paper-caches.ts';
import { judgeSampleForm } from './sample-forms.ts';
import { type Facets, materialTerms } from '../facets.ts';
import { RAW_FIELDS, type RetrievalIndex } from '../index.ts';
import { askedWordsCoverage, leansOffTopic, subjectCoverage, termCoverage, termsUnmet, unanchored } from './term-coverage.ts';
import { type PaperHit, paperMargin } from '../papers.ts';
import { asksForPaperList, type QuestionAnalysis, writtenName } from '../question.ts';
import {
  ABSTAIN_BELOW,
  DECISIVE_MISS_CONFIDENCE,
  NO_FACET_CONFIDENCE,
  TERM_COVERAGE_DESCRIBED,
  UNKNOWN_NAME_PENALTY,
  UNVERIFIED_CONFIDENCE,
} from '../scoring.ts';

export const REASON_CODES = [
  'no-evidence',
  'no-matching-entity',
  'conditions-not-met',
  'unmatched-method',
  'unknown-paper',
  'unmatched-terms',
  'low-score',
  'out-of-scope',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export interface Abstention {
  abstain: boolean;
  /** 0–1: how completely the best paper states what the question names (see `decideAbstention`). */
  confidence: number;
  /**
   * 0–1: the confidence shown (UI, API, the answer's `confidence`): the probability that the answer is right, from the
   * confidence fit over the abstention model's signals (`npm run calibrate`, lib/evaluation/confidence-fit.ts); the
   * decision's own probability that the corpus answers is `model.answerable`. Without a fit it is `confidence`.
   */
  calibrated: number;
  reasons: ReasonCode[];
  explanation: string;
  /** What decided: the fitted model, the hand rules (no fit for this embedder), or a pipeline's own tiers. */
  decidedBy?: 'model' | 'rules' | 'tiers';
  /**
   * How the best paper differs from the question (another value, material or condition, or nothing of it): what a
   * refusal shows beside the closest evidence ("it reports 0.1 S cm⁻¹; you asked about 0.5 S cm⁻¹").
   */
  differences?: FacetDifference[];
  /** What of the question the best paper neither states nor contradicts: named beside an answer given. */
  unverified?: UnverifiedFacet[];
  /** The model's signals and its threshold, when the model decided (shown in the trace). */
  model?: { threshold: number; answerable?: number; signals: AbstentionSignals; strongest: string[] };
}

/** What a pipeline's ranking tells the abstention decision besides the papers. */
export interface AbstentionEvidence {
  evidence: Evidence[];
  /** Facets of the records retrieved (records pipeline), by evidence id. */
  recordFacets?: Map<string, Facets>;
  /** A quoted title was given and matched (or not) a paper in the corpus. */
  titleMatched?: boolean | null;
}

/**
 * Whether to say "not in this corpus". The checks below say what the best paper lacks (the reason codes) and
 * summarise it as a coverage confidence: the share of the question's materials, values and properties that the
 * best paper states anywhere (paragraphs and title), scaled down when the question names materials that appear
 * nowhere in the corpus (× 1 − 0.75 × their share of the material words) or quotes a title no paper has (×0.3).
 * The decision itself is the fitted abstention model's (abstention-model.ts) over these signals and the
 * embedder's similarity between the question and the best paper; without a fit, the coverage confidence below
 * ABSTAIN_BELOW abstains.
 */
export async function decideAbstention(
  index: RetrievalIndex,
  analysis: QuestionAnalysis,
  papers: PaperHit[],
  ranked: AbstentionEvidence,
  question: string = analysis.question,
  fit: AbstentionModel | null | undefined = undefined,
): Promise<Abstention> {
  const reasons: ReasonCode[] = [];
  const top = papers[0];
  if (!top)
    return {
      abstain: true,
      confidence: 0,
      calibrated: 0,
      reasons: ['no-evidence'],
      explanation: 'nothing in the corpus matches the question',
      decidedBy: 'rules',
    };
  // A word the index does not know may still be written in the best paper with the spaces PDF extraction puts into
  // formulas ("Cl 2-y", "AOs 2 O 6", "Sr 0.9 M 0.1 CuO 2"): found there, it is in the corpus. Short words could match
  // inside longer ones once the spaces are gone, so only when the question names the paper by its title.
  const inBestPaper = (w: string) =>
    !!top.paperId && index.papers.has(top.paperId) && (w.length >= 4 || ranked.titleMatched === true) && compactText(index, top.paperId).includes(compact(w));
  // A material the corpus writes in another notation (La0.7Sr0.3MnO3 for La1−xSrxMnO3, a hydrate's salt) is known.
  // The host of a dopant phrase ("LaCoO3" in "Sr-doped LaCoO3") is known when the doped family is.
  const phrases = dopantPhrases(analysis.body).filter((p) => familyKnown(index, p.family));
  const unknown = analysis.entityWords.filter(
    (w) =>
      !entityKnown(index, w) &&
      !inBestPaper(w) &&
      !familyKnown(index, w) &&
      !phrases.some((p) => p.written.includes(w)) &&
      !(withoutDescriptor(w) !== w && entityKnown(index, withoutDescriptor(w))),
  );
  let facets: Facets;
  if (top.paperId && index.papers.has(top.paperId)) {
    // For abstention the title also counts as something the paper states.
    const f = paperFacets(index, top.paperId);
    facets = {
      ...f,
      materials: new Set([...f.materials, ...titleMaterials(index, top.paperId)]),
      quantities: [...f.quantities, ...titleQuantities(index, top.paperId)],
    };
  } else {
    const recs = ranked.evidence.filter((e) => (e.paperId ?? `doi:${e.doi}`) === (top.paperId ?? `doi:${top.doi}`));
    const rf = (id: string) => ranked.recordFacets?.get(id);
    facets = {
      materials: new Set(recs.flatMap((r) => [...(rf(r.id)?.materials ?? [])])),
      properties: new Set(),
      quantities: recs.flatMap((r) => rf(r.id)?.quantities ?? []),
    };
  }
  // A material written in the best paper exactly as the question writes it is stated there, even where the paper's
  // own spelling ("YBa 2 (Cu 1−y Co y ) 3 O 7+δ") did not parse to the same formula; and an element the question
  // names ("nitrogen", "nickel") is stated by a paper that writes its symbol as a word ("quaternary N", "Ni foam"):
  // symbols standing alone are not read as materials, names are.
  const writtenInPaper = new Set(analysis.entityWords.filter(inBestPaper).flatMap((w) => [...wordMaterials(w)]));
  // Only a name: a symbol the question writes inside a composite ("WO3/Ni") is held to the composite.
  const namedElements = new Set(
    findChemicalNames(analysis.body)
      .filter((c) => /^[A-Z][a-z]?$/.test(c.formula))
      .map((c) => `f:${c.formula}`),
  );
  const elementInPaper = (m: string) =>
    namedElements.has(m) && !!top.paperId && index.papers.has(top.paperId) && statedTerms(index, top.paperId, [m.slice(2)]).inPaper.has(m.slice(2));
  const alsoStated = analysis.materials.filter((m) => !facets.materials.has(m) && (writtenInPaper.has(m) || elementInPaper(m)));
  if (alsoStated.length) facets = { ...facets, materials: new Set([...facets.materials, ...alsoStated]) };
  // Names compare after notation: the paper's own family, hydrate salt or doped formula states the question's name.
  const inIndex = !!top.paperId && index.papers.has(top.paperId);
  const judged = inIndex ? materialVerdicts(index, analysis, top.paperId!, facets.materials) : [];
  const restated = judged.filter((m) => m.status === 'stated' || m.status === 'family').flatMap((m) => m.keys);
  if (restated.some((k) => !facets.materials.has(k))) facets = { ...facets, materials: new Set([...facets.materials, ...restated]) };
  const contradictedMaterials = judged.filter((m) => m.status === 'contradicted');
  const { coverage, matched } = facetCoverage(analysis, facets);
  let confidence = coverage ?? NO_FACET_CONFIDENCE;
  // A mixed compound named in words is missing whole when the paper states nothing of its family, whatever its parts.
  const mixedAbsent = new Set(judged.filter((m) => m.mixed && m.status === 'absent').flatMap((m) => m.keys));
  const missingMaterials = analysis.materials.filter((m) => !matched.materials.includes(m) || mixedAbsent.has(m));
  // A value counts where the paper states it with what it is a value of (a material or property the question
  // names): "Cd2Re2O7 … at 25 K" is not met by a paper on Cd2Re2O7 that measured something else at 25 K.
  const missingValues = analysis.quantities.filter(
    (q) => !matched.quantities.includes(q.text) || (top.paperId && index.papers.has(top.paperId) && !statesValue(index, analysis, top.paperId, q)),
  );
  // A value the paper does not state is contradicted when it states another of the same thing, else unverified.
  const values: Omit<FacetVerdicts, 'materials'> = inIndex
    ? judgeValues(index, analysis, top.paperId!, missingValues)
    : { contradictedValues: missingValues.map((quantity) => ({ quantity, stated: '' })), unverifiedValues: [] };
  const form = inIndex ? judgeSampleForm(index, analysis.body, top.paperId!) : null;
  const verdicts: FacetVerdicts = { materials: judged, ...values, form };
  // The paper names what was asked (every material, and the property when one is named): an unverified value then
  // lowers the confidence instead of refusing.
  const specific = specificProperties(analysis);
  const namesAsked =
    analysis.materials.length > 0 && missingMaterials.length === 0 && (specific.length === 0 || specific.some((p) => matched.properties.includes(p)));
  const unverifiedDecides = values.unverifiedValues.length > 0 && !namesAsked;
  if (unknown.length > 0 || missingMaterials.length > 0 || contradictedMaterials.length > 0) reasons.push('no-matching-entity');
  if (values.contradictedValues.length > 0 || unverifiedDecides || form?.status === 'contradicted') reasons.push('conditions-not-met');
  // The values and the technique a question states are decisive: a paper that reports 560 mW cm−2 is not the
  // paper that reports 1900, and one that made the powder hydrothermally is not one that electrospun it.
  const missingTechniques = top.paperId ? analysis.techniques.filter((t) => !paperTechniques(index, top.paperId!).has(t)) : [];
  if (missingTechniques.length > 0) reasons.push('unmatched-method');
  // Materials decide when the paper names none of them (one of several may be spelt in a way the paper does not).
  const noMaterial = analysis.materials.length > 0 && missingMaterials.length === analysis.materials.length;
  const decisive = values.contradictedValues.length > 0 || unverifiedDecides || missingTechniques.length > 0 || noMaterial || contradictedMaterials.length > 0;
  if (decisive || form?.status === 'contradicted') confidence = Math.min(confidence, DECISIVE_MISS_CONFIDENCE);
  else if (values.unverifiedValues.length > 0 || form?.status === 'unverified' || judged.some((m) => m.status === 'family'))
    confidence = Math.min(confidence, UNVERIFIED_CONFIDENCE);
  // Scaled by the share of the named materials the corpus lacks: one unknown word among four is not the same
  // as a question about a material nobody in the corpus made.
  if (unknown.length > 0) confidence *= 1 - UNKNOWN_NAME_PENALTY * (unknown.length / analysis.entityWords.length);
  if (ranked.titleMatched === false) {
    reasons.push('unknown-paper');
    confidence *= 0.3;
  }
  // Descriptive questions ("the paper that discusses melamine-assisted anchoring of nickel phosphide …") name few
  // facets: the words that make them specific must be found in the paper too.
  const statedNames = analysis.entityWords.filter(
    (w) =>
      [...wordMaterials(w)].some((k) => facets.materials.has(k)) ||
      judged.some((v) => v.status !== 'contradicted' && v.status !== 'absent' && v.written.includes(w)),
  );
  // A list of papers on what the question names ("I'm writing a review on the yield of X. Which papers should I
  // read?") is answered by the papers that state those names, whatever the question says of why it asks.
  const listsNamed = asksForPaperList(analysis) && !unanchored(analysis);
  const terms = analysis.intent === 'value' || listsNamed || !top.paperId ? null : termCoverage(index, analysis, top.paperId, statedNames);
  const termsMissed = !!terms && termsUnmet(terms, paperMargin(papers));
  if (terms && termsMissed) {
    reasons.push('unmatched-terms');
    // Below the line in proportion to the words found (0.9 × the line at best, so it stays below).
    confidence = Math.min(confidence, (0.9 * ABSTAIN_BELOW * Math.min(terms.coverage, TERM_COVERAGE_DESCRIBED)) / TERM_COVERAGE_DESCRIBED);
  }
  // A question that names no facet is about its words alone; the best paper must state them together (see subjectCoverage).
  const subject = top.paperId && index.papers.has(top.paperId) ? subjectCoverage(index, analysis, top.paperId) : null;
  const subjectMissed = !!subject && !subject.met;
  if (subjectMissed && !reasons.includes('unmatched-terms')) reasons.push('unmatched-terms');
  // A question that names a facet and asks more of it than `termCoverage` holds it to, read as leaning off-topic:
  // one paragraph of the paper must state what it asks beyond the names (see askedWordsCoverage, leansOffTopic).
  const asked =
    leansOffTopic(analysis) && (!terms || !termsMissed) && !subject && !listsNamed && inIndex ? askedWordsCoverage(index, analysis, top.paperId!) : null;
  const askedMissed = !!asked && !asked.met;
  if (askedMissed && !reasons.includes('unmatched-terms')) reasons.push('unmatched-terms');
  if (subjectMissed || askedMissed) confidence = Math.min(confidence, DECISIVE_MISS_CONFIDENCE);
  const model = fit === undefined ? modelFor(index.embedderId) : fit;
  const needsDense = !!model && model.features.some((f) => DENSE_FEATURES.includes(f));
  const dense = needsDense && top.paperId ? await denseSignals(index, question, top.paperId) : { denseBestPaper: 0, denseGap: 0, denseAgreement: 0 };
  const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
  const signals: AbstentionSignals = {
    rulesAnswer: confidence >= ABSTAIN_BELOW ? 1 : 0,
    ruleConfidence: confidence,
    facetCoverage: coverage ?? 1,
    hasFacets: coverage === null ? 0 : 1,
    missingMaterials: share(missingMaterials.length, analysis.materials.length),
    missingValues: share(missingValues.length, analysis.quantities.length),
    contradictedValues: share(values.contradictedValues.length, analysis.quantities.length),
    unverifiedValues: share(values.unverifiedValues.length, analysis.quantities.length),
    contradictedMaterials: share(contradictedMaterials.length, Math.max(1, judged.length)),
    missingTechniques: share(missingTechniques.length, analysis.techniques.length),
    unknownNames: share(unknown.length, analysis.entityWords.length),
    titleUnmatched: ranked.titleMatched === false ? 1 : 0,
    termCoverage: terms?.coverage ?? 1,
    termParagraph: terms?.paragraph ?? 1,
    distinctiveWords: Math.log1p(terms?.words ?? 0),
    paperLead: paperMargin(papers),
    valueQuestion: analysis.intent === 'value' ? 1 : 0,
    ...dense,
  };
  const p = model ? answerableProbability(model, signals) : confidence;
  // For a question that names no facet every signal of the model reads "met" (facet coverage 1, term coverage 1 below
  // three words), so it cannot tell one the corpus answers from one it does not: the subject check decides those.
  // Another sample form is a condition the paper contradicts (its title is about crystals; the question asks of films).
  const abstain = subjectMissed || askedMissed || form?.status === 'contradicted' || (model ? p < model.threshold : confidence < ABSTAIN_BELOW);
  // What is shown: how likely the answer is right (the confidence fit), which is not how likely an answer exists.
  const shown = subjectMissed || askedMissed ? confidence : model ? shownConfidence(model, signals, p) : confidence;
  if (abstain && reasons.length === 0) reasons.push('low-score');
  const parts: string[] = [];
  if (unknown.length) parts.push(`not in the corpus: ${unknown.join(', ')}`);
  if (missingMaterials.length) parts.push(`the closest paper does not mention ${missingMaterials.map((m) => writtenName(analysis, m)).join(', ')}`);
  if (contradictedMaterials.length)
    parts.push(`the closest paper states ${contradictedMaterials.map((m) => `${m.stated} where the question has ${m.written}`).join(', ')}`);
  if (values.contradictedValues.some((v) => v.stated))
    parts.push(`the closest paper states ${values.contradictedValues.map((v) => `${v.stated} where the question has ${v.quantity.text}`).join(', ')}`);
  const unstated = inIndex ? (unverifiedDecides ? values.unverifiedValues : []) : missingValues;
  if (unstated.length) parts.push(`the closest paper states no ${unstated.map((q) => q.text).join(', ')}${statedInstead(facets, unstated)}`);
  if (missingTechniques.length) {
    const named = top.paperId ? [...paperTechniques(index, top.paperId)] : [];
    parts.push(`the closest paper does not use ${missingTechniques.join(', ')}${named.length ? ` (it uses ${named.slice(0, 4).join(', ')})` : ''}`);
  }
  if (form?.status === 'contradicted') parts.push(`the closest paper is about ${form.stated} where the question has ${form.asked}`);
  if (ranked.titleMatched === false) parts.push('no paper in the corpus has the quoted title');
  if (terms && termsMissed)
    parts.push(
      terms.missing.length
        ? `the closest paper never mentions ${terms.missing.slice(0, 5).join(', ')}`
        : 'no paragraph of the closest paper states the question together, and the next paper is nearly as close',
    );
  if (subjectMissed)
    parts.push(`no paragraph of the closest paper mentions ${subject!.words.join(', ')} together (the closest lacks ${subject!.missing.join(', ')})`);
  const named = [...new Set(analysis.materials.flatMap((m) => analysis.materialNames[m] ?? []))].join(', ') || 'what the question names';
  if (askedMissed) parts.push(`no paragraph of the closest paper mentions ${asked!.missing.join(', ')} with ${named}`);
  // The checks that failed explain an abstention; when the model answers despite one, the explanation says so.
  const explanation = parts.join('; ') || (abstain ? 'no paper states enough of what the question asks' : 'the closest paper states what the question names');
  return {
    abstain,
    confidence: round(confidence, 3),
    calibrated: round(shown, 3),
    reasons,
    explanation,
    decidedBy: model ? 'model' : 'rules',
    differences: differences(
      analysis,
      verdicts,
      [
        ...new Set([
          ...unknown.filter((w) => !contradictedMaterials.some((c) => c.written.includes(w))),
          ...missingMaterials.filter((m) => !contradictedMaterials.some((c) => c.keys.includes(m))).map((m) => writtenName(analysis, m)),
        ]),
      ],
      missingTechniques.map((t) => ({ asked: t, stated: top.paperId ? [...paperTechniques(index, top.paperId)].slice(0, 3).join(', ') || null : null })),
    ),
    unverified: unverifiedFacets(analysis, verdicts),
    ...(model
      ? {
          model: {
            threshold: model.threshold,
            signals: Object.fromEntries(Object.entries(signals).map(([k, v]) => [k, round(v, 3)])) as AbstentionSignals,
            strongest: contributions(model, signals)
              .slice(0, 3)
              .map((c) => `${c.feature} ${c.contribution >= 0 ? '+' : ''}${c.contribution.toFixed(2)}`),
          },
        }
      : {}),
  };
}

/** Papers the dense search is asked for: its top paragraphs, grouped by paper. */
const DENSE_PARAGRAPHS = 30;

/**
 * How the embedder sees the best paper: the cosine between the question and its closest paragraph, how much
 * closer the corpus's closest paragraph is, and the best paper's rank among the papers of the dense search's top
 * paragraphs. This is where meaning enters the decision: a paper that states the question in other words is close
 * to it although its words differ, and one about something else is far although it shares them.
 */
async function denseSignals(
  index: RetrievalIndex,
  question: string,
  paperId: string,
): Promise<Pick<AbstentionSignals, 'denseBestPaper' | 'denseGap' | 'denseAgreement'>> {
  const [q] = await embedQueries(index.embedder, [question]);
  const [similarities, hits] = await Promise.all([
    index.raw.dense.similarities(q, index.papers.get(paperId)?.paragraphIds ?? []),
    index.raw.dense.query(q, DENSE_PARAGRAPHS),
  ]);
  const best = Math.max(0, ...similarities);
  const order: string[] = [];
  for (const h of hits) {
    const pid = index.paragraphs.get(h.id)?.paperId;
    if (pid && !order.includes(pid)) order.push(pid);
  }
  const rank = order.indexOf(paperId);
  return { denseBestPaper: best, denseGap: Math.max(0, (hits[0]?.score ?? 0) - best), denseAgreement: rank >= 0 ? 1 / (rank + 1) : 0 };
}

/**
 * Whether a material word of the question ("NiCo-LDH@HOS", "Ba1−xKxBiO3") occurs in the corpus: as written
 * (after the index's own tokenisation), or through the canonical key of the whole word (formula in Hill order,
 * lexicon entry). Known parts do not make a compound known: "Co/P-N-C" is not in a corpus that only has Co.
 */
function entityKnown(index: RetrievalIndex, word: string): boolean {
  const w = word.replace(/[−–]/g, '-');
  if (wordKnown(index, w)) return true;
  // A composite written with "/" or "@" ("Mn3O4/MnO", "Ni-Si@C", "PVDF/PEO"), or joined by hyphens from names
  // and formulas ("NiO–gadolinium-doped", "LSTN-yttria-stabilized"), is known when each part is and one paper
  // names them all; parts known from different papers do not make it known ("NiCo/Ni/CuO/CF"). Hyphens split only
  // into parts of three characters or more: "Co/P-N-C" is not made of the elements it lists.
  const slashed = w.split(/[/@]/).filter(Boolean);
  const hyphened = w.split(/[/@-]/).filter(Boolean);
  const parts = hyphened.length > slashed.length && hyphened.every((p) => p.length >= 3) ? hyphened : slashed;
  if (parts.length < 2 || !parts.every((p) => wordKnown(index, p))) return false;
  const partTerms = parts.flatMap((p) => plainTerms(p).slice(0, 1));
  // The in-process postings (a synchronous check; the same raw fields whichever engine the pipelines search).
  const candidates = new Set(index.paragraphLexical.query(partTerms, { limit: 30, fields: RAW_FIELDS }).map((h) => index.paragraphs.get(h.id)?.paperId));
  return [...candidates].some((paperId) => !!paperId && parts.every((p) => compactText(index, paperId).includes(compact(p))));
}

/** The canonical materials one written word names. */
function wordMaterials(word: string): Set<string> {
  const f = textFacets(word);
  return materialTerms(f.formulas, f.materials);
}

function wordKnown(index: RetrievalIndex, w: string): boolean {
  if (index.raw.lexical.documentFrequency(w) > 0) return true;
  const first = plainTerms(w)[0];
  if (first && first.length >= w.length - 1 && index.raw.lexical.documentFrequency(first) > 0) return true;
  const key = formulaKey(tidyFormula(w));
  if (key && index.json.lexical.documentFrequency(`f:${key}`) > 0) return true;
  const lex = normaliseMaterial(w);
  return lex.kind === 'lexicon' && index.json.lexical.documentFrequency(`m:${lex.key}`) > 0;
}
