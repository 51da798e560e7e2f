import type { GraphIndex, IndexedTuple } from '../retrieval/graph-index.ts';
import type { QuestionAnalysis } from '../retrieval/question.ts';
import type { SynthesisMethod } from '../structure/classify.ts';
import { propertyEntry } from '../structure/properties.ts';
import { compositionCosine } from '../structure/formula.ts';
import { canonicalUnits, type Dimension } from '../structure/quantities.ts';
import {
  ARIA,
  causalPaths,
  dimensionOf,
  groundConcepts,
  numericalCompatibility,
  rankAnalogues,
  type AriaAnalogue,
  type AriaPath,
  type GroundedConcept,
} from './aria.ts';
import { type RouteStep, routedFormulas, routeSteps } from './design-routes.ts';

export type { RouteStep } from './design-routes.ts';

/**
 * The two design question modes of method C, answered from the graph with the same tiers:
 * - inverse design (target properties → synthesis): materials whose `has_property` tuples meet the target
 *   (a comparator from the question — above / below / about — on the value in canonical units), each with the
 *   synthesis route the graph knows for it (methods, precursors, conditions, substrates, dopants), the route from
 *   the same paper first. Tier 1 when a material meets the target and has a known route; tier 2 (analogy) when
 *   only near misses (ranked by N, numerical compatibility) or routes-less materials are known; tier 3 when the
 *   graph holds no value of the property.
 * - forward prediction (synthesis conditions → properties): the properties the graph records for the question's
 *   material, each value with how well the conditions of its paper (method, temperatures, times) match the
 *   question's; tier 1 from the material itself, tier 2 from analogue materials ranked by Sim (with their stance),
 *   tier 3 when neither exists. Causal paths between the question's concepts are attached in both modes as levers.
 * Every suggestion carries the tuples (hence paragraphs or records, and papers) it rests on.
 */
export type DesignMode = 'forward' | 'inverse';

export interface DesignTarget {
  property: string;
  label: string;
  dimension: Dimension | null;
  comparator: '>=' | '<=' | '≈' | null;
  value: number | null;
  unit: string | null;
}

export interface EvidenceValue {
  value: number | null;
  valueMax: number | null;
  unit: string | null;
  condition: string | null;
  /** The tuple stating the value; its provenance is the result's `tuple:<id>` evidence item. */
  tupleId: string;
  paperId: string | null;
}

export interface InverseSuggestion {
  material: { key: string; label: string };
  property: string;
  achieved: EvidenceValue;
  /** Whether the achieved value satisfies the target (always true when the question gives no value). */
  meets: boolean;
  /** Numerical compatibility of the achieved value with the target value (1 without a target value). */
  N: number;
  route: RouteStep[];
  /** The route comes from the paper that reports the value (else from other papers on the same material). */
  routeFromSamePaper: boolean;
  /** When the graph has no route for the material: the route of its nearest composition analogue (cos ≥ 0.8). */
  analogueRoute: { key: string; label: string; cos: number; route: RouteStep[] } | null;
  score: number;
}

export interface ForwardCase extends EvidenceValue {
  material: { key: string; label: string };
  /** 0–1: how well the case's synthesis conditions match the question's (method, temperatures, times). */
  conditionMatch: number;
  conditions: RouteStep[];
}

export interface ForwardPrediction {
  property: string;
  label: string;
  /** Weighted over the best-matching cases' values (canonical units). */
  estimate: { low: number; high: number; median: number; unit: string | null } | null;
  cases: ForwardCase[];
  basis: 'material' | 'analogue';
  /** For analogue-based predictions: the analogue's similarity breakdown and stance. */
  analogue: AriaAnalogue | null;
}

export interface DesignResult {
  mode: DesignMode;
  tier: 1 | 2 | 3;
  grounded: GroundedConcept[];
  targets: DesignTarget[];
  conditions: { method: string | null; quantities: { dimension: string; value: number; unit: string; text: string }[] };
  suggestions: InverseSuggestion[];
  predictions: ForwardPrediction[];
  paths: AriaPath[];
  /** Tier 3 only: whether a model may answer alone (else the system abstains). */
  modelOnly: boolean;
  explanation: string;
}

const INVERSE =
  /\b(?:how (?:can|could|should|would|do|does|to|might) (?:i |we |one |you )?(?:make|synthesi[sz]e|prepare|obtain|achieve|fabricate|design|produce|get|reach|grow)|(?:which|what) (?:synthesis|processing|preparation|fabrication)? ?(?:routes?|conditions?|methods?|procedures?|recipes?|precursors?)\b[^?]*\b(?:give|gives|yield|yields|achieve|achieves|reach|reaches|lead to|leads to|produce|produces|for|to get|to obtain|to achieve)|inverse design|design (?:a|an) \w+)/i;
const FORWARD =
  /\b(?:predict\w*|forward prediction|what (?:\w+ ){0,3}(?:would|will|should) (?:\w+ ){0,6}(?:have|show|exhibit|reach|be)|(?:would|will) (?:it|the \w+|they) (?:have|show|exhibit|reach)|what (?:properties|property) (?:\w+ ){0,3}(?:result|follow|expected)|expected (?:\w+ )?(?:properties|property|value)|if (?:i|we|one|you) (?:synthesi[sz]e|sinter|anneal|calcine|prepare|make|grow|heat))\b/i;
// The question's analysis reads bounds ("above", "at least", "below", "≥" …) into each value's comparator. A design
// target also reads "over" and "under" as bounds ("Tc over 30 K"), which elsewhere state conditions ("over 100 h").
const TARGET_OVER = /\bover\s*$/i;
const TARGET_UNDER = /\bunder\s*$/i;

/** The design mode a question asks for, if any: inverse needs a target property, forward a material or conditions. */
export function detectDesignMode(analysis: QuestionAnalysis): DesignMode | null {
  const q = analysis.body;
  if (INVERSE.test(q) && analysis.properties.length > 0) return 'inverse';
  if (FORWARD.test(q) && (analysis.materials.length > 0 || analysis.quantities.length > 0 || analysis.aboutSynthesis)) return 'forward';
  return null;
}

/** Target properties with the value and comparator the question states for each (matched by dimension). */
export function designTargets(analysis: QuestionAnalysis, mode: DesignMode): DesignTarget[] {
  return analysis.properties
    .filter((p) => p !== 'temperature' && p !== 'duration')
    .map((p) => {
      const entry = propertyEntry(p);
      const dimension = entry?.dimension ?? null;
      // Forward questions state conditions, not targets: "Tc of MgB2 sintered at 1173 K" has no target value.
      const q = dimension && mode === 'inverse' ? analysis.quantities.find((x) => x.dimension === dimension) : undefined;
      let comparator: DesignTarget['comparator'] = null;
      if (q) {
        const before = analysis.body.slice(Math.max(0, q.start - 24), q.start);
        comparator = q.comparator?.startsWith('>') || TARGET_OVER.test(before) ? '>=' : q.comparator?.startsWith('<') || TARGET_UNDER.test(before) ? '<=' : '≈';
      }
      return { property: p, label: entry?.label ?? p, dimension, comparator, value: q ? q.canonical[0] : null, unit: q ? q.canonicalUnit : null };
    });
}

// A method the question names outright (the paragraph classifier's cues, such as "calcined", would read any
// heat treatment as a solid-state route).
const METHOD_NAMES: [RegExp, SynthesisMethod][] = [
  [/\bsolid[- ]state\b|\bsolid[- ]phase\b|\bceramic route\b/i, 'solid-phase'],
  [/\bsol[- ]gel\b|\bpechini\b|\bcitrate(?:[- ]nitrate)? (?:route|method|combustion)\b/i, 'sol-gel'],
  [/\bhydrothermal\w*|\bsolvothermal\w*/i, 'hydro-solvothermal'],
  [/\b(?:co-?)?precipitat\w*/i, 'precipitation'],
  [/\belectrodeposit\w*|\belectroplat\w*/i, 'electrodeposition'],
  [/\b(?:CVD|PVD|PLD|ALD|MBE)\b|\bsputter\w*|\bvapou?r deposition\b|\bpulsed laser deposition\b|\batomic layer deposition\b/i, 'vapor-phase'],
];

const evidenceValue = (t: IndexedTuple): EvidenceValue => ({
  value: t.value,
  valueMax: t.valueMax,
  unit: t.unit,
  condition: t.referenceNode,
  tupleId: t.id,
  paperId: t.paperId,
});

/** Whether a stated value (or range) satisfies a target; ≈ means within 10 %. */
function meetsTarget(t: IndexedTuple, target: DesignTarget): { meets: boolean; N: number; best: number | null } {
  if (target.value === null) return { meets: true, N: 1, best: t.value };
  if (t.value === null || (target.unit && t.unit && t.unit !== target.unit)) return { meets: false, N: 0, best: null };
  const lo = t.value;
  const hi = t.valueMax ?? t.value;
  const best = target.comparator === '>=' ? hi : target.comparator === '<=' ? lo : Math.abs(lo - target.value) < Math.abs(hi - target.value) ? lo : hi;
  const meets = target.comparator === '>=' ? best >= target.value : target.comparator === '<=' ? best <= target.value : null;
  // A bound that is met is fully compatible; a miss, or an "about" target, scores by relative distance.
  const N = meets ? 1 : numericalCompatibility([{ dimension: 'x', value: target.value }], [{ dimension: 'x', value: best }]);
  return { meets: meets ?? N >= 0.9, N, best };
}

export async function designReason(
  graph: GraphIndex,
  analysis: QuestionAnalysis,
  mode: DesignMode,
  embed: (t: string[]) => Promise<Float32Array[]>,
  opts: { modelConfigured: boolean; limit?: number },
): Promise<DesignResult> {
  const limit = opts.limit ?? 8;
  const [questionVector] = await embed([analysis.body]);
  const grounded = groundConcepts(graph, analysis, questionVector);
  const paths = causalPaths(
    graph,
    grounded.map((g) => g.key),
    10,
  );
  const targets = designTargets(analysis, mode);
  const targetTexts = new Set(targets.map((t) => t.value));
  const conditions = {
    method: METHOD_NAMES.find(([re]) => re.test(analysis.body))?.[1] ?? null,
    quantities: analysis.quantities
      .filter((q) => (q.dimension === 'temperature' || q.dimension === 'time' || q.dimension === 'pressure') && !targetTexts.has(q.canonical[0]))
      .map((q) => ({ dimension: q.dimension, value: q.canonical[0], unit: canonicalUnits[q.dimension], text: q.text })),
  };
  // The question's materials: grounded formulas and lexicon materials (concepts such as "cathode" are not).
  const materials = grounded.filter((g) => /^[fm]:/.test(g.key));
  const base = { mode, grounded, targets, conditions, paths };
  const none = (explanation: string): DesignResult => ({ ...base, tier: 3, suggestions: [], predictions: [], modelOnly: opts.modelConfigured, explanation });

  if (mode === 'inverse') {
    if (targets.length === 0) return none('the question names no target property the graph knows');
    // Restrict to the question's material when it names one ("how to make LSCF with …"), else any material.
    const only = materials.length ? new Set(materials.map((m) => m.key)) : null;
    const byMaterial = new Map<string, InverseSuggestion>();
    for (const target of targets) {
      for (const id of graph.entityByKey.get(`p:${target.property}`)?.tupleIds ?? []) {
        const t = graph.tuples.get(id)!;
        if (t.relation !== 'has_property' || t.objectCanonical !== `p:${target.property}`) continue;
        if (only && !only.has(t.subjectCanonical)) continue;
        const { meets, N, best } = meetsTarget(t, target);
        if (N === 0 && !meets) continue;
        const route = routeSteps(graph, t.subjectCanonical);
        const same = route.filter((r) => r.paperId === t.paperId);
        const chosen = (same.length ? [...same, ...route.filter((r) => r.paperId !== t.paperId)] : route).slice(0, 12);
        // Past a met bound, the further the better ("above 30 K": 39 K before 33 K), by a small margin term.
        const margin =
          meets && best !== null && target.value && target.comparator !== '≈' ? Math.min(1, Math.abs(best - target.value) / Math.abs(target.value)) : 0;
        const score = (meets ? 1 : 0) + 0.5 * N + 0.1 * margin + (route.length ? 0.5 : 0) + (same.length ? 0.25 : 0);
        const cur = byMaterial.get(t.subjectCanonical);
        if (!cur || score > cur.score || (score === cur.score && t.id < cur.achieved.tupleId)) {
          byMaterial.set(t.subjectCanonical, {
            material: { key: t.subjectCanonical, label: t.subjectLabel },
            property: target.property,
            achieved: evidenceValue(t),
            meets,
            N,
            route: chosen,
            routeFromSamePaper: same.length > 0,
            analogueRoute: null,
            score,
          });
        }
      }
    }
    const suggestions = [...byMaterial.values()].sort((a, b) => b.score - a.score || (a.material.key < b.material.key ? -1 : 1)).slice(0, limit);
    // Analogy for the route: a material without one borrows the route of its nearest composition analogue.
    for (const s of suggestions) {
      if (s.route.length > 0 || !s.material.key.startsWith('f:')) continue;
      let best: InverseSuggestion['analogueRoute'] = null;
      for (const e of routedFormulas(graph)) {
        if (e.key === s.material.key) continue;
        const cos = compositionCosine(s.material.key.slice(2), e.key.slice(2));
        if (cos >= 0.8 && (!best || cos > best.cos)) best = { key: e.key, label: e.label, cos, route: routeSteps(graph, e.key).slice(0, 12) };
      }
      s.analogueRoute = best;
    }
    if (suggestions.length === 0) return none(`the graph holds no value of ${targets.map((t) => t.label).join(', ')}${only ? ' for the named material' : ''}`);
    const direct = suggestions.some((s) => s.meets && s.route.length > 0);
    return {
      ...base,
      tier: direct ? 1 : 2,
      suggestions,
      predictions: [],
      modelOnly: false,
      explanation: direct
        ? 'materials that reach the target, with the synthesis routes the graph records for them'
        : suggestions.some((s) => s.meets && s.analogueRoute)
          ? 'materials reach the target but the graph records no synthesis route for them: the routes shown are those of their closest composition analogues'
          : suggestions.some((s) => s.meets)
            ? 'materials reach the target but the graph records no synthesis route for them or for a close analogue'
            : 'no material in the graph reaches the target: the nearest known values and their routes (analogy, by N)',
    };
  }

  // Forward prediction.
  const wanted = targets.length ? new Set(targets.map((t) => t.property)) : null;
  const casesOf = (key: string, label: string): Map<string, ForwardCase[]> => {
    const byProperty = new Map<string, ForwardCase[]>();
    const route = routeSteps(graph, key);
    for (const id of graph.entityByKey.get(key)?.tupleIds ?? []) {
      const t = graph.tuples.get(id)!;
      if (t.relation !== 'has_property' || t.subjectCanonical !== key) continue;
      const property = t.objectCanonical.slice(2);
      if (wanted && !wanted.has(property)) continue;
      const paperRoute = route.filter((r) => r.paperId === t.paperId);
      const list = byProperty.get(property) ?? [];
      list.push({ ...evidenceValue(t), material: { key, label }, conditionMatch: conditionMatch(conditions, paperRoute), conditions: paperRoute.slice(0, 10) });
      byProperty.set(property, list);
    }
    return byProperty;
  };
  const predictions: ForwardPrediction[] = [];
  for (const m of materials) {
    for (const [property, cases] of casesOf(m.key, m.label)) predictions.push(prediction(property, cases, 'material', null));
  }
  if (predictions.length > 0) {
    return {
      ...base,
      tier: 1,
      suggestions: [],
      predictions: predictions.slice(0, limit),
      modelOnly: false,
      explanation: 'property values the graph records for the material, weighted by how well their synthesis conditions match the question',
    };
  }
  // Tier 2: analogue materials that have the wanted properties.
  // Anchors: the grounded materials, else the formula-like words the graph does not know ("BaCe0.7Zr0.1Y0.1Yb0.1O3"
  // finds its relatives by spelling), else the question.
  const anchors = materials.length
    ? materials.map((m) => graph.entityByKey.get(m.key)!.vector)
    : analysis.entityWords.length
      ? await embed(analysis.entityWords)
      : [questionVector];
  // Formulas among the anchors also find analogues by composition ("BaCe0.9Yb0.1O3" for "BaCe0.7Zr0.1Y0.1Yb0.1O3").
  const formulas = [...materials.map((m) => m.key), ...analysis.materials].filter((k) => k.startsWith('f:')).map((k) => k.slice(2));
  const { accepted } = rankAnalogues(graph, {
    anchors,
    similarity: formulas.length ? (e) => (e.key.startsWith('f:') ? Math.max(...formulas.map((f) => compositionCosine(f, e.key.slice(2)))) : 0) : undefined,
    exclude: new Set(grounded.map((g) => g.key)),
    questionText: analysis.question,
    // N compares the question's conditions with the analogue's synthesis conditions, not with its property values.
    quantities: conditions.quantities,
    quantitiesOf: (e) => routeSteps(graph, e.key).flatMap((r) => (r.kind === 'condition' ? dimensionOf(graph.tuples.get(r.tupleId)!) : [])),
    evidence: (t) => t.relation === 'has_property' && (!wanted || wanted.has(t.objectCanonical.slice(2))) && !t.subjectCanonical.startsWith('p:'),
  });
  for (const a of accepted.slice(0, ARIA.topK)) {
    for (const [property, cases] of casesOf(a.key, a.label)) predictions.push(prediction(property, cases, 'analogue', a));
  }
  if (predictions.length === 0)
    return none(
      materials.length
        ? 'the graph records no properties for the material or for any analogue of it'
        : 'the question names no material the graph knows, and no analogue qualifies',
    );
  return {
    ...base,
    tier: 2,
    suggestions: [],
    predictions: predictions.slice(0, limit),
    modelOnly: false,
    explanation: 'no values for the material itself: values of analogue materials, with their similarity and stance',
  };
}

/** 0–1 agreement of a case's synthesis conditions with the question's: method equal, temperatures/times by N; 0.5 when unknown. */
function conditionMatch(conditions: DesignResult['conditions'], route: RouteStep[]): number {
  const parts: number[] = [];
  if (conditions.method) {
    const methods = route.filter((r) => r.kind === 'method').map((r) => r.label);
    parts.push(methods.length === 0 ? 0.5 : methods.includes(conditions.method) ? 1 : 0);
  }
  for (const q of conditions.quantities) {
    const stated = route
      .filter((r) => r.kind === 'condition' && r.unit === q.unit && r.value !== null)
      .map((r) => ({ dimension: q.dimension, value: r.value! }));
    parts.push(stated.length === 0 ? 0.5 : numericalCompatibility([q], stated));
  }
  return parts.length ? parts.reduce((a, b) => a + b, 0) / parts.length : 0.5;
}

/** The estimate of one property: the values of the cases whose conditions match best (within 0.1 of the best). */
function prediction(property: string, cases: ForwardCase[], basis: ForwardPrediction['basis'], analogue: AriaAnalogue | null): ForwardPrediction {
  cases.sort((a, b) => b.conditionMatch - a.conditionMatch || (a.tupleId < b.tupleId ? -1 : 1));
  const best = cases[0]?.conditionMatch ?? 0;
  const valued = cases.filter((c) => c.value !== null && c.conditionMatch >= best - 0.1);
  const units = new Set(valued.map((c) => c.unit));
  let estimate: ForwardPrediction['estimate'] = null;
  if (valued.length && units.size === 1) {
    // Median and interquartile range: single stray values (a ΔTc, a misread number) do not set the range.
    const values = valued.map((c) => (c.value! + (c.valueMax ?? c.value!)) / 2).sort((a, b) => a - b);
    const at = (f: number) => values[Math.min(values.length - 1, Math.max(0, Math.round(f * (values.length - 1))))];
    estimate = { low: at(0.25), high: at(0.75), median: at(0.5), unit: valued[0].unit };
  }
  return { property, label: propertyEntry(property)?.label ?? property, estimate, cases: cases.slice(0, 6), basis, analogue };
}
