import { type Evidence, paperOf } from '../../evidence/model.ts';
import { isElementSymbol } from '../../structure/formula.ts';
import { findTechniques } from '../../structure/techniques.ts';
import { findProperties } from '../../structure/properties.ts';
import { type StructuredFacets, textFacets } from '../../structure/terms.ts';
import { specificProperties, valueContext } from '../coverage.ts';
import { splitSentences } from '../../structure/sentences.ts';
import { type Facets, materialTerms, quantityFacet, quantityMatch } from '../facets.ts';
import type { UnverifiedFacet } from './facet-verdicts.ts';
import { addedElements, materialFamily, namedMaterials, withoutDescriptor } from './material-match.ts';
import { compact } from '../paper-caches.ts';
import type { QuestionAnalysis } from '../question.ts';
import type { Quantity } from '../../structure/quantities.ts';
import { stepGrounding } from './step-grounding.ts';
import { CHANGE_VERB } from '../value.ts';

/**
 * What an answer's cited evidence states of what the question asks, read from the cited passages themselves (not
 * from the paper they come from, which is what the decision to answer read): an answer is grounded when what it
 * cites states the asked material (after notation: a formula's family, a hydrate's salt, a mixed oxide named in
 * words) and the asked property. Each share is null when the question asks none of it.
 */
export interface Grounding {
  /** Share of the named materials the cited evidence states (by key, or by family: the same elements). */
  material: number | null;
  /** Share of the specific properties asked that the cited evidence states. */
  property: number | null;
  /** Share of the question's values (and conditions) the cited evidence states. */
  value: number | null;
  /** Share of the preparation techniques asked that the cited evidence names. */
  technique: number | null;
  /** 1 when the cited evidence states the answer's value as a value of the step asked (step-grounding.ts), else 0. */
  step: number | null;
  /** What of the question the cited evidence does not state, said beside the answer. */
  ungrounded: UnverifiedFacet[];
}

const share = (got: number, of: number): number | null => (of > 0 ? got / of : null);

/** `answered`: the values the answer states (its lead sentence's), whose step is checked. */
export function groundingOf(analysis: QuestionAnalysis, cited: readonly Evidence[], answered: readonly Quantity[] = []): Grounding {
  const titles = cited.map((e) => (e.kind === 'record' ? '' : (paperOf(e)?.title ?? '')));
  const text = cited.map((e, i) => `${titles[i]}\n${e.text}`).join('\n');
  // Each cited passage read once, sentence by sentence: the values are checked per sentence, the rest on their union.
  const texts = cited.map((e) => splitSentences(e.text).map((s) => s.text));
  const sentences = texts.map((passage) => passage.map(textFacets));
  const read = [...titles.filter(Boolean).map(textFacets), ...sentences.flat()];
  const materials = new Set(read.flatMap((f) => [...materialTerms(f.formulas, f.materials)]));
  const families = new Set([...materials].map(materialFamily).filter((f): f is string => !!f));
  const properties = new Set(read.flatMap((f) => f.properties));
  const ungrounded: UnverifiedFacet[] = [];

  const fromFacets = namedMaterials(analysis);
  // A name the question writes that no reader turns into a material ("PLCCO", "Mo-1222Eu") is held to its spelling.
  // (A property or technique written as an acronym, "ASR", "ALD", is held to its own checks.)
  const inProperty = (w: string) => analysis.propertySpans.some((p) => analysis.body.slice(p.start, p.end).includes(w));
  const spelled = analysis.entityWords
    .filter((w) => !fromFacets.some((m) => m.written.includes(w)) && !inProperty(w) && findTechniques(w).length === 0)
    .map((w) => ({ keys: [] as string[], written: w, family: null }));
  const named = [...fromFacets, ...addedElements(analysis.body), ...spelled];
  const compactText = compact(text).toLowerCase();
  const statedMaterials = named.filter(
    (m) =>
      // A mixed name's keys are its parts: a lithium salt is no lithium iron phosphate.
      (!('mixed' in m && m.mixed) && m.keys.some((k) => materials.has(k) || (isElementSymbol(k.slice(2)) && new RegExp(`\\b${k.slice(2)}\\b`).test(text)))) ||
      (!!m.family && families.has(m.family)) ||
      (m.keys.length === 0 && compactText.includes(compact(withoutDescriptor(m.written)).toLowerCase())),
  );
  // Named only inside a composite ("SCDC–LSCF heterostructure", "Ni-YSZ") is another sample than the one asked.
  const inComposite = statedMaterials.filter((m) => !/[-–/@+]/.test(m.written) && onlyInComposites(text, m.written));
  const grounded = statedMaterials.filter((m) => !inComposite.includes(m));
  for (const m of named)
    if (!grounded.includes(m))
      ungrounded.push({
        facet: 'material',
        asked: m.written,
        note: inComposite.includes(m) ? 'the cited evidence names it only in a composite' : 'the cited evidence does not name it',
      });

  const asked = specificProperties(analysis);
  const statedProperties = asked.filter((p) => properties.has(p));
  const unnamed = asked.filter((p) => !properties.has(p));
  // Said as the question writes it ("Tc"), not by the lexicon's key.
  const written = (key: string) => {
    const m = findProperties(analysis.body).find((p) => p.key === key);
    return m ? analysis.body.slice(m.start, m.end) : key.replace(/-/g, ' ');
  };
  if (unnamed.length && grounded.length)
    ungrounded.push({ facet: 'value', asked: unnamed.map(written).join(', '), note: 'the cited evidence does not state this property' });

  const statedValues = valuesStated(analysis, sentences, texts, fromFacets);
  for (const q of analysis.quantities)
    if (!statedValues.includes(q)) ungrounded.push({ facet: 'condition', asked: q.text, note: 'the cited evidence does not state it' });

  const techniques = new Set(findTechniques(text));
  const statedTechniques = analysis.techniques.filter((t) => techniques.has(t));
  for (const t of analysis.techniques)
    if (!techniques.has(t)) ungrounded.push({ facet: 'condition', asked: t, note: 'the cited evidence does not say it was made this way' });

  const step = stepGrounding(
    analysis.body,
    analysis.askedDimension,
    answered,
    texts.flatMap((passage, i) => passage.map((t, j) => ({ text: t, quantities: sentences[i][j].quantities }))),
  );
  if (step.grounded === false)
    ungrounded.push({ facet: 'condition', asked: `the ${step.asked.join(' or ')} step`, note: 'the cited evidence states the value of another step' });

  return {
    material: share(grounded.length, named.length),
    step: step.grounded === null ? null : step.grounded ? 1 : 0,
    technique: share(statedTechniques.length, analysis.techniques.length),
    property: share(statedProperties.length, asked.length),
    value: share(statedValues.length, analysis.quantities.length),
    ungrounded,
  };
}

/**
 * The question's values a cited sentence states as what they are values of (it, or the sentence before, names an
 * asked material or property, or it states another asked value: coverage.ts, valueContext) — not the same number
 * said of something else — and, when the question states several, together: two adjacent sentences state them all
 * (a Tc at a pressure is one fact, not a Tc from one experiment and a pressure from another). Apart, the last one
 * is left unstated.
 */
function valuesStated(
  analysis: QuestionAnalysis,
  cited: readonly StructuredFacets[][],
  texts: readonly string[][],
  named: ReturnType<typeof namedMaterials>,
): QuestionAnalysis['quantities'] {
  if (!analysis.quantities.length) return [];
  // A sentence naming an asked material by its family (La1−xSrxCoO3−δ for La0.6Sr0.4CoO3−δ) names it.
  const byFamily = named.filter((m) => m.family);
  const paragraphs: Facets[][] = cited.map((passage, p) =>
    passage.map((f, i) => {
      const families = new Set(f.formulas.map((k) => materialFamily(`f:${k}`)));
      const materials = materialTerms(f.formulas, f.materials);
      for (const m of byFamily) if (families.has(m.family)) for (const k of m.keys) materials.add(k);
      return { materials, properties: new Set(f.properties), quantities: f.quantities.flatMap((q) => endsOfChange(texts[p][i], q)).map(quantityFacet) };
    }),
  );
  const stated = analysis.quantities.filter((q) => {
    const inContext = valueContext(analysis, q);
    return paragraphs.some((sentences) => sentences.some((s, i) => quantityMatch(s.quantities, q) > 0 && inContext(sentences, i)));
  });
  if (stated.length < 2) return stated;
  const together = paragraphs.some((sentences) =>
    sentences.some((_, i) => stated.every((q) => quantityMatch([...sentences[i].quantities, ...(sentences[i + 1]?.quantities ?? [])], q) > 0)),
  );
  return together ? stated : stated.slice(0, -1);
}

// "drops from 543 to 106 mW/cm2", "increases from 600 to 1000 °C": a change between two values, not a range of them.
const CHANGED_FROM = new RegExp(`\\b${CHANGE_VERB}\\s+from\\s+$`, 'i');

/**
 * A range stated as a change ("the power density drops from 543 to 106 mW/cm2") states its two ends and no value
 * between them: 423 mW/cm2 is not stated by it. Any other quantity as it is.
 */
function endsOfChange(text: string, q: Quantity): Quantity[] {
  if (q.kind !== 'range' || !CHANGED_FROM.test(text.slice(Math.max(0, q.start - 40), q.start))) return [q];
  return q.canonical.map((c, i) => ({ ...q, kind: 'single', values: [q.values[i] ?? c], canonical: [c] }));
}

/** Whether every mention of `name` in `text` is joined to another name ("LSCF/GDC", "Ni–YSZ", "SCDC-LSCF"); false when none. */
function onlyInComposites(text: string, name: string): boolean {
  const mentions = compositeMentions(text, name);
  return mentions.length > 0 && mentions.every(Boolean);
}

/**
 * Each mention of `name` in `text`, and whether it is joined to another name as a composite ("Ni-YSZ", "LSM/YSZ",
 * "Pt@GDC", "GDC–YSZ", "Pd+LSM"): a value said of such a mention may be the composite's. "YSZ-based" and "8YSZ"
 * name it alone.
 */
export function compositeMentions(text: string, name: string): boolean[] {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [...text.matchAll(new RegExp(`(?<![\\w.])${escaped}(?![\\w.])`, 'g'))].map((m) => {
    const before = text.slice(Math.max(0, m.index - 2), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 3);
    return /[\w)]\s?[-–/@+]$|[\w)][-–/@+]\s$/.test(before) || /^\s?[-–/@+]\s?[A-Z(]/.test(after);
  });
}
