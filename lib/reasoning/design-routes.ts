import { materialEntity } from '../graph/tuples.ts';
import type { GraphIndex, IndexedTuple } from '../retrieval/graph-index.ts';

/**
 * Synthesis routes as the graph records them, for design answers: a material's steps (methods, precursors,
 * conditions, substrates, dopants, and the solvents and additives named for it), computed once per material and
 * graph index.
 */

export interface RouteStep {
  kind: 'method' | 'precursor' | 'condition' | 'substrate' | 'dopant' | 'solvent' | 'additive';
  label: string;
  /** Conditions: the step ("calcination") and the value in canonical units. */
  step: string | null;
  value: number | null;
  valueMax: number | null;
  unit: string | null;
  /** The tuple stating the step; its provenance is the result's `tuple:<id>` evidence item. */
  tupleId: string;
  /** The reporting paper (routes list the value's own paper first). */
  paperId: string | null;
}

const ROUTE_KIND: Partial<Record<string, RouteStep['kind']>> = {
  synthesized_by: 'method',
  synthesized_from: 'precursor',
  processed_at: 'condition',
  grown_on: 'substrate',
  doped_with: 'dopant',
};

const step = (t: IndexedTuple, kind: RouteStep['kind'], label: string): RouteStep => ({
  kind,
  label,
  step: t.relation === 'processed_at' ? t.referenceNode : null,
  value: t.relation === 'processed_at' ? t.value : null,
  valueMax: t.relation === 'processed_at' ? t.valueMax : null,
  unit: t.relation === 'processed_at' ? t.unit : null,
  tupleId: t.id,
  paperId: t.paperId,
});

// Routes depend only on the graph index: computed once per material and index.
const routeCache = new WeakMap<GraphIndex, Map<string, RouteStep[]>>();

/** Every synthesis step the graph records for a material: its own route tuples plus solvents/additives used in making it. */
export function routeSteps(graph: GraphIndex, key: string): RouteStep[] {
  let cache = routeCache.get(graph);
  if (!cache) routeCache.set(graph, (cache = new Map()));
  let route = cache.get(key);
  if (!route) cache.set(key, (route = computeRoute(graph, key)));
  return route;
}

/** Formula entities that have a route of their own: the candidates a route-less material may borrow from. */
const routedFormulasCache = new WeakMap<GraphIndex, { key: string; label: string }[]>();
export function routedFormulas(graph: GraphIndex): { key: string; label: string }[] {
  let list = routedFormulasCache.get(graph);
  if (!list)
    routedFormulasCache.set(
      graph,
      (list = graph.entities.filter((e) => e.key.startsWith('f:') && routeSteps(graph, e.key).length > 0).map((e) => ({ key: e.key, label: e.label }))),
    );
  return list;
}

function computeRoute(graph: GraphIndex, key: string): RouteStep[] {
  const e = graph.entityByKey.get(key);
  if (!e) return [];
  const out: RouteStep[] = [];
  for (const id of e.tupleIds) {
    const t = graph.tuples.get(id)!;
    if (t.subjectCanonical === key) {
      const kind = ROUTE_KIND[t.relation];
      if (kind && t.objectCanonical !== 'method:others') out.push(step(t, kind, t.objectLabel));
    }
  }
  for (const id of usedInSynthesisOf(graph).get(key) ?? []) {
    const t = graph.tuples.get(id)!;
    out.push(step(t, t.objectKey === 'n:solvent' ? 'solvent' : 'additive', t.subjectLabel));
  }
  return out;
}

// Solvents and additives point at their target by name ("X used_as solvent in_synthesis_of <target>"): the
// names are resolved to canonical keys once per graph index.
const usedInCache = new WeakMap<GraphIndex, Map<string, string[]>>();
function usedInSynthesisOf(graph: GraphIndex): Map<string, string[]> {
  let map = usedInCache.get(graph);
  if (map) return map;
  map = new Map();
  for (const role of ['n:solvent', 'n:additive']) {
    // The role's entity may itself have been merged into a representative ("solvents").
    for (const id of graph.entityByKey.get(graph.canonicalOf.get(role) ?? role)?.tupleIds ?? []) {
      const t = graph.tuples.get(id)!;
      if (t.relation !== 'used_as' || t.objectKey !== role || t.referenceRelation !== 'in_synthesis_of' || !t.referenceNode) continue;
      const key = materialEntity(t.referenceNode).key;
      const canonical = graph.canonicalOf.get(key) ?? key;
      map.set(canonical, [...(map.get(canonical) ?? []), id]);
    }
  }
  usedInCache.set(graph, map);
  return map;
}
