/**
 * The graph as the UI shows it: entities as nodes (with their kind), one edge per tuple (with its relation), and
 * each tuple's value and source sentence, so an edge can list the tuples behind it and open their paragraphs.
 * Plain data and pure functions, shared by the server (`explore.ts`) and the browser (the graph view).
 */
export interface GraphNode {
  id: string;
  label: string;
  kind: string;
  /** The entity canonical clustering merged this one into, when it did ("conductivities" → "conductivity"). */
  mergedInto?: string | null;
}
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  relation: string;
}
export interface GraphTupleView {
  id: string;
  subject: GraphNode;
  relation: string;
  object: GraphNode;
  value: string | null;
  sentence: string | null;
  paperId: string | null;
  paragraphId: string | null;
  /** The paragraph's position in its paper (the paper page's `#p<ordinal>` anchor). */
  paragraphOrdinal: number | null;
}
export interface GraphData {
  nodes: GraphNode[];
  edges: GraphEdge[];
  tuples: GraphTupleView[];
}

/** The colour of each entity kind, on the canvas and in its legend. */
export const KIND_COLOURS: Record<string, string> = {
  material: '#0f766e',
  property: '#7c3aed',
  method: '#b45309',
  value: '#2563eb',
  concept: '#475569',
};
export const kindColour = (kind: string) => KIND_COLOURS[kind] ?? KIND_COLOURS.concept;

/** A tuple's value as its text states it: "812 mW/cm^2", a range "600–800 °C", or null when it has none. */
export function tupleValue(t: { value: number | null; valueMax: number | null; unit: string | null }): string | null {
  if (t.value === null) return null;
  // Kelvin values a Celsius one was converted to ("873.15") are shown in °C, as the paper wrote them.
  const celsius = t.unit === 'K' && [t.value, t.valueMax ?? t.value].every((v) => Math.abs((v - 273.15) * 2 - Math.round((v - 273.15) * 2)) < 1e-6);
  if (celsius) return tupleValue({ value: t.value - 273.15, valueMax: t.valueMax === null ? null : t.valueMax - 273.15, unit: '°C' });
  const [factor, unit] = readableUnit(t.unit, Math.max(Math.abs(t.value), Math.abs(t.valueMax ?? t.value)));
  const n = (v: number) => Number((v / factor).toPrecision(4));
  return `${n(t.value)}${t.valueMax !== null && t.valueMax !== t.value ? `–${n(t.valueMax)}` : ''}${unit ? ` ${unit}` : ''}`;
}

/**
 * Values are stored in their dimension's canonical unit; shown, they take the unit of that family people use at
 * that size ("1.13 GPa", not "1130000000 Pa"; "2.2 W/cm^2"; "150 µm"). [divisor, unit shown].
 */
const SCALES: Record<string, [number, string][]> = {
  Pa: [
    [1e9, 'GPa'],
    [1e6, 'MPa'],
    [1e3, 'kPa'],
  ],
  nm: [
    [1e9, 'm'],
    [1e6, 'mm'],
    [1e3, 'µm'],
  ],
  'mW/cm^2': [[1e3, 'W/cm^2']],
  'mA/cm^2': [[1e3, 'A/cm^2']],
};

function readableUnit(unit: string | null, magnitude: number): [number, string | null] {
  if (!unit) return [1, unit];
  if (unit === 'h' && magnitude > 0 && magnitude < 1) return [1 / 60, 'min'];
  const scale = SCALES[unit]?.find(([f]) => magnitude >= f);
  return scale ?? [1, unit];
}

/**
 * The edges an answer rests on: those whose tuples it cites, or that were read from a paragraph it cites. The answer
 * graph opens on these and folds the rest by relation.
 */
export function citedEdges(data: GraphData, cited: { tupleIds: Iterable<string>; paragraphIds: Iterable<string> }): Set<string> {
  const tuples = new Set(cited.tupleIds);
  const paragraphs = new Set(cited.paragraphIds);
  // An edge stands for every tuple between its two entities with its relation: the cited ones, keyed that way.
  const edgeKey = (source: string, relation: string, target: string) => `${source}\u0000${relation}\u0000${target}`;
  const citedKeys = new Set(
    data.tuples
      .filter((t) => tuples.has(t.id) || (t.paragraphId !== null && paragraphs.has(t.paragraphId)))
      .map((t) => edgeKey(t.subject.id, t.relation, t.object.id)),
  );
  return new Set(data.edges.filter((e) => tuples.has(e.id) || citedKeys.has(edgeKey(e.source, e.relation, e.target))).map((e) => e.id));
}

/** Edges as the canvas draws them: the tuples with one subject, relation and object gathered into one edge. */
export interface GatheredEdge extends GraphEdge {
  /** The tuple ids the edge stands for (its id is the first one's). */
  members: string[];
}

/**
 * Gathers parallel edges: eight "MgB2 has property Tc" tuples from eight sentences are one edge with a count (the
 * edge lists its tuples when clicked), not eight overlapping curves. Order follows the first member of each.
 */
export function gatherEdges(edges: GraphEdge[]): GatheredEdge[] {
  const byKey = new Map<string, GatheredEdge>();
  for (const e of edges) {
    const key = `${e.source}\u0000${e.relation}\u0000${e.target}`;
    const seen = byKey.get(key);
    if (seen) seen.members.push(e.id);
    else byKey.set(key, { ...e, members: [e.id] });
  }
  return [...byKey.values()];
}

/** An edge's label: its relation in words, with the number of tuples behind it when there are several. */
export const edgeLabel = (e: Pick<GatheredEdge, 'relation' | 'members'>) =>
  `${e.relation.replace(/_/g, ' ')}${e.members.length > 1 ? ` ×${e.members.length}` : ''}`;

/** Nodes shown at most, as method B caps its views; an expansion adds at most EXPANSION_TUPLES tuples. */
export const GRAPH_NODE_CAP = 300;
export const EXPANSION_TUPLES = 60;

/** Two views as one (an expansion added to what is shown), nodes capped at GRAPH_NODE_CAP; edges need both ends shown. */
export function mergeGraphs(a: GraphData, b: GraphData): GraphData {
  const nodes = new Map(a.nodes.map((n) => [n.id, n]));
  for (const n of b.nodes) if (!nodes.has(n.id) && nodes.size < GRAPH_NODE_CAP) nodes.set(n.id, n);
  const edges = new Map(a.edges.map((e) => [e.id, e]));
  for (const e of b.edges) if (nodes.has(e.source) && nodes.has(e.target)) edges.set(e.id, e);
  const tuples = new Map(a.tuples.map((t) => [t.id, t]));
  for (const t of b.tuples) if (edges.has(t.id)) tuples.set(t.id, t);
  return { nodes: [...nodes.values()], edges: [...edges.values()], tuples: [...tuples.values()] };
}

/**
 * The merges among the shown nodes, as links: nodes of one merge family (a representative and the names merged
 * into it) are joined to the representative when it is shown, else to the family's first shown member. Drawn as
 * "same as" links, so a reader sees which names the graph treats as one entity without losing either spelling.
 */
export function mergeLinks(nodes: GraphNode[]): { id: string; source: string; target: string }[] {
  const shown = new Set(nodes.map((n) => n.id));
  const families = new Map<string, GraphNode[]>();
  for (const n of nodes) {
    const family = n.mergedInto ?? n.id;
    families.set(family, [...(families.get(family) ?? []), n]);
  }
  const links: { id: string; source: string; target: string }[] = [];
  for (const [family, members] of families) {
    if (members.length < 2 && !(members[0]?.mergedInto && shown.has(family))) continue;
    const hub = shown.has(family) ? family : members[0].id;
    for (const m of members) if (m.id !== hub) links.push({ id: `merge:${m.id}>${hub}`, source: m.id, target: hub });
  }
  return links;
}

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The view as GraphML (nodes with label and kind, edges with relation), for Gephi, yEd or Cytoscape desktop. */
export function toGraphML(g: GraphData): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
    '  <key id="label" for="node" attr.name="label" attr.type="string"/>',
    '  <key id="kind" for="node" attr.name="kind" attr.type="string"/>',
    '  <key id="relation" for="edge" attr.name="relation" attr.type="string"/>',
    '  <graph id="assay" edgedefault="directed">',
    ...g.nodes.map((n) => `    <node id="${xml(n.id)}"><data key="label">${xml(n.label)}</data><data key="kind">${xml(n.kind)}</data></node>`),
    ...g.edges.map(
      (e) => `    <edge id="${xml(e.id)}" source="${xml(e.source)}" target="${xml(e.target)}"><data key="relation">${xml(e.relation)}</data></edge>`,
    ),
    '  </graph>',
    '</graphml>',
  ];
  return `${lines.join('\n')}\n`;
}
