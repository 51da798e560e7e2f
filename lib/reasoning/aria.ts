import type { CanonicalEntity, GraphIndex, IndexedTuple } from '../retrieval/graph-index.ts';
import type { QuestionAnalysis } from '../retrieval/question.ts';
import { plainTerms } from '../structure/terms.ts';
import { sparse, sparseDot } from '../embedding/embedder.ts';

/**
 * Tiered reasoning over the causal graph (method C), returning what the answer and the UI need:
 * - Tier 1, direct path: the question's concepts are grounded on graph entities and simple directed causal
 *   paths (increases / decreases / causes, ≤ 4 hops) between them are enumerated;
 * - Tier 2, analogy: when there is no path, entities similar to a grounded concept are ranked by
 *   Sim = α·cos·(1 + β·context_overlap) + γ·F + δ·N (α 0.4, β 0.1, γ 0.35, δ 0.25) over those with cos ≥ τ;
 *   F = factual consistency from a table of conflicting concept pairs within shared contexts, N = numerical
 *   compatibility of shared quantities; each analogue carries its breakdown and an extrapolate / caution /
 *   diverge label from its embedding distance (< 0.4, 0.4–0.7, > 0.7);
 *   a candidate is rejected (and reported as such) when F ≤ 0.5 — an opposite concept pair such as n-type vs
 *   p-type in a shared context — or when Sim < 0.6;
 * - Tier 3: no usable evidence — the model alone when one is configured, otherwise abstain.
 */
export const ARIA = { alpha: 0.4, beta: 0.1, gamma: 0.35, delta: 0.25, tau: 0.5, minSim: 0.6, maxF: 0.5, topK: 5, maxHops: 4 } as const;

export const CONTEXTS: Record<string, RegExp> = {
  doping: /\b(?:dop\w*|dopant\w*|substitut\w*)\b/i,
  synthesis: /\b(?:synthes\w*|calcin\w*|sinter\w*|anneal\w*|hydrothermal|sol-gel|precursor\w*|prepar\w*)\b/i,
  structure: /\b(?:phase\w*|lattice|crystal\w*|structur\w*|grain\w*|morpholog\w*|amorphous|porosity)\b/i,
  electrical: /\b(?:conductiv\w*|resistiv\w*|resistance|current|voltage|power density|ionic|electronic|n-type|p-type)\b/i,
  mechanical: /\b(?:hardness|modulus|strength|tensile|stress|strain|ductil\w*|fracture)\b/i,
  thermal: /\b(?:thermal|temperature\w*|expansion|melting|heat\w*|glass transition)\b/i,
  optical: /\b(?:optical|absorption|band ?gap|emission|photo\w*|luminescen\w*|transparen\w*)\b/i,
  magnetic: /\b(?:magnet\w*|spin|ferromagnet\w*|antiferromagnet\w*|superconduct\w*)\b/i,
};

/** Concept pairs that cannot both hold of the same thing (opposite: full weight) or only under conditions (half). */
export const CONCEPT_CONFLICTS: { a: RegExp; b: RegExp; kind: 'opposite' | 'conditional'; contexts: string[] }[] = [
  { a: /\bn-type\b/i, b: /\bp-type\b/i, kind: 'opposite', contexts: ['electrical', 'doping'] },
  { a: /\bcrystalline\b/i, b: /\bamorphous\b/i, kind: 'opposite', contexts: ['structure'] },
  { a: /\bferromagnet\w*/i, b: /\bantiferromagnet\w*/i, kind: 'opposite', contexts: ['magnetic'] },
  { a: /\bmetallic\b/i, b: /\binsulat\w*/i, kind: 'opposite', contexts: ['electrical'] },
  { a: /\bhydrophilic\b/i, b: /\bhydrophobic\b/i, kind: 'opposite', contexts: ['structure'] },
  { a: /\boxidi[sz]ing\b/i, b: /\breducing\b/i, kind: 'opposite', contexts: ['synthesis'] },
  { a: /\bhigh(?:er)? temperature/i, b: /\blow(?:er)? temperature/i, kind: 'conditional', contexts: ['thermal', 'synthesis'] },
  { a: /\bhigh(?:er)? pressure/i, b: /\blow(?:er)? pressure/i, kind: 'conditional', contexts: ['synthesis', 'structure'] },
];

export interface AriaPath {
  nodes: string[];
  /** The path's tuples in order; their provenance is the result's `tuple:<id>` evidence items. */
  tuples: { id: string; relation: string; text: string }[];
}

export interface AriaAnalogue {
  key: string;
  label: string;
  cos: number;
  contextOverlap: number;
  F: number;
  N: number;
  sim: number;
  distance: number;
  stance: 'extrapolate' | 'caution' | 'diverge';
  tupleIds: string[];
}

export interface RejectedAnalogue extends AriaAnalogue {
  reason: 'factual-conflict' | 'below-threshold';
}

export interface GroundedConcept {
  key: string;
  label: string;
  cos: number;
}

export interface AriaResult {
  tier: 1 | 2 | 3;
  grounded: GroundedConcept[];
  paths: AriaPath[];
  analogues: AriaAnalogue[];
  /** Candidates that passed the cosine gate but were rejected by F or the Sim threshold, best first (≤ 5). */
  rejected: RejectedAnalogue[];
  /** Tier 3 only: whether a model may answer alone (else the system abstains). */
  modelOnly: boolean;
}

export function contextsOf(text: string): Set<string> {
  return new Set(
    Object.entries(CONTEXTS)
      .filter(([, re]) => re.test(text))
      .map(([c]) => c),
  );
}

/** F = max(0, 1 − Σ w·s) over conflicting concept pairs found across query and candidate in a shared context. */
export function factualConsistency(queryText: string, candidateText: string, shared: Set<string>): number {
  let penalty = 0;
  for (const c of CONCEPT_CONFLICTS) {
    if (!c.contexts.some((x) => shared.has(x))) continue;
    const clash =
      (c.a.test(queryText) && c.b.test(candidateText) && !c.a.test(candidateText)) ||
      (c.b.test(queryText) && c.a.test(candidateText) && !c.b.test(candidateText));
    if (clash) penalty += c.kind === 'opposite' ? 0.5 : 0.25;
  }
  return Math.max(0, 1 - penalty);
}

/** N = Π (1 − min(0.5, |p_q − p_n| / max(p_q, p_n) × tolerance)) over quantities of a dimension both sides state. */
export function numericalCompatibility(
  query: { dimension: string; value: number }[],
  candidate: { dimension: string; value: number }[],
  tolerance = 1,
): number {
  let n = 1;
  for (const q of query) {
    const same = candidate.filter((c) => c.dimension === q.dimension);
    if (same.length === 0) continue;
    const best = Math.min(...same.map((c) => Math.abs(q.value - c.value) / Math.max(Math.abs(q.value), Math.abs(c.value), 1e-12)));
    n *= 1 - Math.min(0.5, best * tolerance);
  }
  return n;
}

/** A tuple's quantities (value and reference node, in canonical units) as N compares them. */
export const dimensionOf = (t: IndexedTuple) => t.quantities.filter((q) => q.dimension).map((q) => ({ dimension: q.dimension, value: q.values[0] }));

/**
 * Grounds the question's concepts on graph entities: exact canonical keys of its materials and properties, then
 * entities every content word of whose label is in the question, or whose label (≥ 3 words) embeds within cosine
 * 0.7 of the whole question (single keywords would ground too broadly; short labels such as "mm diameter" have
 * sparse vectors whose cosines are unreliable, so they ground only by words).
 */
export function groundConcepts(graph: GraphIndex, analysis: QuestionAnalysis, questionVector: Float32Array): GroundedConcept[] {
  const grounded = new Map<string, GroundedConcept>();
  for (const k of [...analysis.materials, ...analysis.properties.map((p) => `p:${p}`)]) {
    const e = graph.entityByKey.get(graph.canonicalOf.get(k) ?? k);
    if (e) grounded.set(e.key, { key: e.key, label: e.label, cos: 1 });
  }
  const questionTerms = new Set(plainTerms(analysis.body));
  const q = sparse(questionVector);
  for (const e of graph.entities) {
    // Values ("30 h") are conditions of tuples, not concepts: "30 K" in a question would ground "30 h" by its number.
    if (grounded.has(e.key) || e.key.startsWith('v:')) continue;
    const labelTerms = e.terms;
    const contained = labelTerms.length > 0 && labelTerms.every((t) => questionTerms.has(t));
    if (!contained && labelTerms.length < 3) continue;
    const cos = sparseDot(q, e.vector);
    if (contained || cos >= 0.7) grounded.set(e.key, { key: e.key, label: e.label, cos: contained ? Math.max(cos, 0.9) : cos });
  }
  return [...grounded.values()].sort((a, b) => b.cos - a.cos).slice(0, 12);
}

/** Simple directed causal paths (increases / decreases / causes, ≤ maxHops) between any two of the keys. */
export function causalPaths(graph: GraphIndex, keys: string[], limit = 20): AriaPath[] {
  const paths: AriaPath[] = [];
  for (const from of keys) {
    for (const to of keys) {
      if (from === to) continue;
      const walk = (node: string, trail: IndexedTuple[], seen: Set<string>) => {
        if (paths.length >= limit) return;
        if (node === to && trail.length) {
          paths.push({ nodes: [from, ...trail.map((t) => t.objectCanonical)], tuples: trail.map((t) => ({ id: t.id, relation: t.relation, text: t.text })) });
          return;
        }
        if (trail.length >= ARIA.maxHops) return;
        for (const t of graph.causalOut.get(node) ?? []) {
          if (seen.has(t.objectCanonical)) continue;
          seen.add(t.objectCanonical);
          walk(t.objectCanonical, [...trail, t], seen);
          seen.delete(t.objectCanonical);
        }
      };
      walk(from, [], new Set([from]));
    }
  }
  return paths;
}

export interface AnalogueQuery {
  /** Vectors the candidates are compared with (grounded concepts, or the question itself). */
  anchors: Float32Array[];
  /** Keys never returned as analogues (the grounded concepts themselves). */
  exclude: Set<string>;
  questionText: string;
  quantities: { dimension: string; value: number }[];
  /** Which of an entity's tuples are its evidence; entities without any are not candidates. */
  evidence: (t: IndexedTuple) => boolean;
  /** The candidate's quantities N compares with `quantities` (default: those of its evidence tuples). */
  quantitiesOf?: (e: CanonicalEntity) => { dimension: string; value: number }[];
  /** A domain similarity used where it exceeds the embedding cosine (composition similarity of formulas). */
  similarity?: (e: CanonicalEntity) => number;
}

/**
 * Tier 2's ranking: candidates with cos ≥ τ to an anchor that share one of the eight contexts with the question
 * (when it has one: without a shared context F and N are vacuous and cos alone would decide), scored by
 * Sim = α·cos·(1 + β·context_overlap) + γ·F + δ·N; those with F ≤ 0.5 or Sim < 0.6 are rejected.
 */
export function rankAnalogues(graph: GraphIndex, q: AnalogueQuery): { accepted: AriaAnalogue[]; rejected: RejectedAnalogue[] } {
  const queryContexts = contextsOf(q.questionText);
  const accepted: AriaAnalogue[] = [];
  const rejected: RejectedAnalogue[] = [];
  const anchors = q.anchors.map(sparse);
  for (const e of graph.entities) {
    if (q.exclude.has(e.key)) continue;
    let cos = q.similarity?.(e) ?? -1;
    for (const a of anchors) cos = Math.max(cos, sparseDot(a, e.vector));
    if (cos < ARIA.tau) continue;
    const tuples = e.tupleIds.map((id) => graph.tuples.get(id)!).filter(q.evidence);
    if (tuples.length === 0) continue;
    const text = tuples.map((t) => `${t.text} ${t.sentence ?? ''}`).join(' ');
    const cand = contextsOf(text);
    const union = new Set([...queryContexts, ...cand]);
    const shared = new Set([...queryContexts].filter((c) => cand.has(c)));
    if (queryContexts.size > 0 && shared.size === 0) continue;
    const contextOverlap = union.size ? shared.size / union.size : 0;
    const F = factualConsistency(q.questionText, text, shared);
    const N = numericalCompatibility(q.quantities, q.quantitiesOf ? q.quantitiesOf(e) : tuples.flatMap(dimensionOf));
    const sim = ARIA.alpha * cos * (1 + ARIA.beta * contextOverlap) + ARIA.gamma * F + ARIA.delta * N;
    const distance = 1 - cos;
    const a: AriaAnalogue = {
      key: e.key,
      label: e.label,
      cos,
      contextOverlap,
      F,
      N,
      sim,
      distance,
      stance: distance < 0.4 ? 'extrapolate' : distance > 0.7 ? 'diverge' : 'caution',
      tupleIds: tuples.map((t) => t.id).slice(0, 10),
    };
    if (F <= ARIA.maxF) rejected.push({ ...a, reason: 'factual-conflict' });
    else if (sim < ARIA.minSim) rejected.push({ ...a, reason: 'below-threshold' });
    else accepted.push(a);
  }
  const order = (a: AriaAnalogue, b: AriaAnalogue) => b.sim - a.sim || (a.key < b.key ? -1 : 1);
  return { accepted: accepted.sort(order), rejected: rejected.sort(order).slice(0, 5) };
}

export async function ariaReason(
  graph: GraphIndex,
  analysis: QuestionAnalysis,
  embed: (t: string[]) => Promise<Float32Array[]>,
  opts: { modelConfigured: boolean },
): Promise<AriaResult> {
  const [questionVector] = await embed([analysis.body]);
  const grounded = groundConcepts(graph, analysis, questionVector);
  // Tier 1: directed causal paths between grounded concepts.
  const paths = causalPaths(
    graph,
    grounded.map((g) => g.key),
  );
  if (paths.length > 0) return { tier: 1, grounded, paths, analogues: [], rejected: [], modelOnly: false };
  // Tier 2: analogues of the grounded concepts (or of the question itself when nothing is grounded).
  const { accepted, rejected } = rankAnalogues(graph, {
    anchors: grounded.length ? grounded.map((g) => graph.entityByKey.get(g.key)!.vector) : [questionVector],
    exclude: new Set(grounded.map((g) => g.key)),
    questionText: analysis.question,
    quantities: analysis.quantities.map((q) => ({ dimension: q.dimension, value: q.canonical[0] })),
    evidence: (t) => t.causal || t.relation === 'has_property',
  });
  if (accepted.length > 0) return { tier: 2, grounded, paths: [], analogues: accepted.slice(0, ARIA.topK), rejected, modelOnly: false };
  return { tier: 3, grounded, paths: [], analogues: [], rejected, modelOnly: opts.modelConfigured };
}
