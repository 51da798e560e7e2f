import { describe, expect, it } from 'vitest';
import { citedEdges, edgeLabel, gatherEdges, GRAPH_NODE_CAP, type GraphData, mergeGraphs, mergeLinks, toGraphML, tupleValue } from './view.ts';

const node = (id: string) => ({ id, label: id.slice(2), kind: 'material' });
const tuple = (id: string, s: string, o: string) => ({
  id,
  subject: node(s),
  relation: 'has_property',
  object: node(o),
  value: null,
  sentence: null,
  paperId: null,
  paragraphId: null,
  paragraphOrdinal: null,
});
const graph = (pairs: [string, string, string][]): GraphData => ({
  nodes: [...new Set(pairs.flatMap(([, s, o]) => [s, o]))].map(node),
  edges: pairs.map(([id, source, target]) => ({ id, source, target, relation: 'has_property' })),
  tuples: pairs.map(([id, s, o]) => tuple(id, s, o)),
});

describe('gatherEdges', () => {
  it('draws the tuples of one subject, relation and object as one edge with their count', () => {
    const g = graph([
      ['t1', 'f:MgB2', 'p:Tc'],
      ['t2', 'f:MgB2', 'p:Tc'],
      ['t3', 'f:MgB2', 'p:Hc2'],
      ['t4', 'f:MgB2', 'p:Tc'],
    ]);
    const gathered = gatherEdges(g.edges);
    expect(gathered.map((e) => [e.id, e.members])).toEqual([
      ['t1', ['t1', 't2', 't4']],
      ['t3', ['t3']],
    ]);
    expect(gathered.map(edgeLabel)).toEqual(['has property ×3', 'has property']);
  });
});

describe('mergeGraphs', () => {
  it('adds an expansion without duplicates', () => {
    const merged = mergeGraphs(
      graph([['t1', 'f:A', 'f:B']]),
      graph([
        ['t1', 'f:A', 'f:B'],
        ['t2', 'f:B', 'f:C'],
      ]),
    );
    expect(merged.nodes.map((n) => n.id)).toEqual(['f:A', 'f:B', 'f:C']);
    expect(merged.edges.map((e) => e.id)).toEqual(['t1', 't2']);
    expect(merged.tuples.map((t) => t.id)).toEqual(['t1', 't2']);
  });
  it('keeps the view under the node cap, dropping edges whose ends are not shown', () => {
    const big = graph(Array.from({ length: GRAPH_NODE_CAP - 1 }, (_, i) => [`t${i}`, 'f:Hub', `f:N${i}`] as [string, string, string]));
    const merged = mergeGraphs(big, graph([['x', 'f:Hub', 'f:New']]));
    expect(merged.nodes).toHaveLength(GRAPH_NODE_CAP);
    expect(merged.edges.some((e) => e.id === 'x')).toBe(false);
    expect(merged.tuples.some((t) => t.id === 'x')).toBe(false);
  });
});

describe('toGraphML', () => {
  it('writes nodes with label and kind and edges with relation, escaping markup', () => {
    const g = graph([['t<1>', 'f:A&B', 'p:power "density"']]);
    const xml = toGraphML(g);
    expect(xml).toContain('<graphml xmlns="http://graphml.graphdrawing.org/xmlns">');
    expect(xml).toContain('<node id="f:A&amp;B"><data key="label">A&amp;B</data><data key="kind">material</data></node>');
    expect(xml).toContain('<edge id="t&lt;1&gt;" source="f:A&amp;B" target="p:power &quot;density&quot;"><data key="relation">has_property</data></edge>');
    expect(xml).not.toMatch(/<[^/?gnkde]/);
  });
});

describe('mergeLinks', () => {
  const n = (id: string, mergedInto: string | null = null) => ({ id, label: id.slice(2), kind: 'concept', mergedInto });
  it('joins merged names to their representative when it is shown, else to one another', () => {
    expect(mergeLinks([n('n:gbc'), n('n:gbcs', 'n:gbc'), n('n:gbcx', 'n:gbc'), n('f:A')])).toEqual([
      { id: 'merge:n:gbcs>n:gbc', source: 'n:gbcs', target: 'n:gbc' },
      { id: 'merge:n:gbcx>n:gbc', source: 'n:gbcx', target: 'n:gbc' },
    ]);
    // The representative is not shown: its two spellings are still joined.
    expect(mergeLinks([n('n:gbcs', 'n:gbc'), n('n:gbcx', 'n:gbc')])).toEqual([{ id: 'merge:n:gbcx>n:gbcs', source: 'n:gbcx', target: 'n:gbcs' }]);
    // One merged name alone, or nothing merged: no link.
    expect(mergeLinks([n('n:gbcs', 'n:gbc'), n('f:A')])).toEqual([]);
  });
  it('shows a stored value in the unit of its family people use at that size', () => {
    expect(tupleValue({ value: 150000000, valueMax: 1130000000, unit: 'Pa' })).toBe('0.15–1.13 GPa');
    expect(tupleValue({ value: 2200, valueMax: null, unit: 'mW/cm^2' })).toBe('2.2 W/cm^2');
    expect(tupleValue({ value: 412, valueMax: null, unit: 'mW/cm^2' })).toBe('412 mW/cm^2');
    expect(tupleValue({ value: 150000, valueMax: null, unit: 'nm' })).toBe('150 µm');
    expect(tupleValue({ value: 0.5, valueMax: null, unit: 'h' })).toBe('30 min');
    expect(tupleValue({ value: 873.15, valueMax: 1073.15, unit: 'K' })).toBe('600–800 °C');
    expect(tupleValue({ value: 39, valueMax: null, unit: 'K' })).toBe('39 K');
  });
  it('opens an answer graph on the edges whose tuples the answer cites or reads from a cited paragraph', () => {
    const g = graph([
      ['t1', 'f:A', 'p:x'],
      ['t2', 'f:B', 'p:x'],
      ['t3', 'f:C', 'p:x'],
    ]);
    g.tuples[1] = { ...g.tuples[1], paragraphId: 'para-2' };
    expect([...citedEdges(g, { tupleIds: ['t1'], paragraphIds: ['para-2'] })].sort()).toEqual(['t1', 't2']);
    expect(citedEdges(g, { tupleIds: [], paragraphIds: [] }).size).toBe(0);
  });
});
