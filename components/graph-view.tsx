'use client';

import { callApi } from './api-client';
import { useMutation } from '@tanstack/react-query';
import type { Core } from 'cytoscape';
import dynamic from 'next/dynamic';
import { useMemo, useRef, useState } from 'react';
import { edgeLabel, gatherEdges, type GraphData, kindColour, mergeGraphs, mergeLinks, toGraphML } from '@/lib/graph/view';
import { TupleItem } from './tuple-item';

const GraphCanvas = dynamic(() => import('./graph-canvas'), {
  ssr: false,
  loading: () => <p className="p-3 text-sm text-slate-600">Loading the graph…</p>,
});

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * An interactive graph: the canvas (cytoscape with the fcose layout), a legend with counts per entity kind, a
 * relation filter, node search, fit and reset, expansion of a node's neighbourhood, the tuples behind a clicked
 * edge with links to their paragraphs, and export as JSON or GraphML; `path` (tuple ids) is highlighted as the
 * causal path, and names merged by canonical clustering are joined by "same as" links. Every node and edge is also
 * listed as a button, so the graph can be used from the keyboard and read by a screen reader.
 */
export function GraphView({
  initial,
  name = 'graph',
  path = [],
  focus,
}: {
  initial: GraphData;
  name?: string;
  path?: string[];
  /** Edges to open on (an answer's cited tuples); the others are folded under "all" and their relations. */
  focus?: ReadonlySet<string>;
}) {
  const [data, setData] = useState(initial);
  const pathEdges = useMemo(() => new Set(path), [path]);
  const focused = focus && focus.size > 0;
  const [relation, setRelation] = useState(focused ? 'cited' : 'all');
  const [search, setSearch] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [selected, setSelected] = useState<{ kind: 'node' | 'edge'; id: string } | null>(null);
  const cy = useRef<Core | null>(null);

  const expand = useMutation({
    mutationFn: async (key: string): Promise<GraphData> => {
      return callApi('GET /api/graph/neighbourhood', { query: { key } }, { failure: 'expansion failed' });
    },
    onSuccess: (g) => {
      const merged = mergeGraphs(data, g);
      setNotice(`${merged.nodes.length - data.nodes.length} nodes and ${merged.edges.length - data.edges.length} edges added`);
      setData(merged);
    },
  });

  const relations = useMemo(() => {
    const counts = new Map<string, number>();
    for (const e of data.edges) counts.set(e.relation, (counts.get(e.relation) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1]);
  }, [data.edges]);
  const edges =
    relation === 'all'
      ? data.edges
      : relation === 'cited'
        ? data.edges.filter((e) => focus?.has(e.id) || pathEdges.has(e.id))
        : data.edges.filter((e) => e.relation === relation);
  const nodes = useMemo(() => {
    if (relation === 'all') return data.nodes;
    const touched = new Set(edges.flatMap((e) => [e.source, e.target]));
    return data.nodes.filter((n) => touched.has(n.id));
  }, [data.nodes, edges, relation]);
  // Parallel tuples (one subject, relation and object) are drawn and listed as one edge with their count.
  const shown = useMemo(() => gatherEdges(edges), [edges]);
  const merges = useMemo(() => mergeLinks(nodes), [nodes]);
  const label = (id: string) => data.nodes.find((n) => n.id === id)?.label ?? id;
  const kinds = useMemo(() => {
    const counts = new Map<string, number>();
    for (const n of nodes) counts.set(n.kind, (counts.get(n.kind) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1]);
  }, [nodes]);

  const node = selected?.kind === 'node' ? data.nodes.find((n) => n.id === selected.id) : undefined;
  const edge = selected?.kind === 'edge' ? data.edges.find((e) => e.id === selected.id) : undefined;
  // The tuples behind an edge: every tuple between the same two entities with the same relation.
  const edgeTuples = edge ? data.tuples.filter((t) => t.subject.id === edge.source && t.object.id === edge.target && t.relation === edge.relation) : [];

  const find = () => {
    const q = search.trim().toLowerCase();
    if (!q) return;
    const hit = nodes.find((n) => n.label.toLowerCase().includes(q) || n.id.toLowerCase().includes(q));
    if (!hit) {
      setNotice(`no node matches “${search.trim()}”`);
      return;
    }
    setNotice(null);
    setSelected({ kind: 'node', id: hit.id });
    const el = cy.current?.getElementById(hit.id);
    if (el?.nonempty()) cy.current?.animate({ center: { eles: el }, zoom: 1.5 }, { duration: 200 });
  };

  if (initial.nodes.length === 0) return <p className="text-sm text-slate-600">No graph tuples for this item.</p>;
  return (
    <div className="space-y-2" data-testid="graph-view">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <label>
          Relation{' '}
          <select
            value={relation}
            onChange={(e) => setRelation(e.target.value)}
            className="rounded border border-slate-300 px-1 py-0.5"
            aria-label="Filter by relation"
          >
            {focused && <option value="cited">cited by the answer ({data.edges.filter((e) => focus.has(e.id) || pathEdges.has(e.id)).length})</option>}
            <option value="all">all ({data.edges.length})</option>
            {relations.map(([r, n]) => (
              <option key={r} value={r}>
                {r.replace(/_/g, ' ')} ({n})
              </option>
            ))}
          </select>
        </label>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            find();
          }}
          className="flex gap-1"
        >
          <input
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Find a node"
            aria-label="Find a node"
            className="w-32 rounded border border-slate-300 px-1 py-0.5"
          />
          <button type="submit" className="rounded border border-slate-300 px-2">
            Find node
          </button>
        </form>
        <button type="button" className="rounded border border-slate-300 px-2" onClick={() => cy.current?.fit(undefined, 20)}>
          Fit
        </button>
        <button
          type="button"
          className="rounded border border-slate-300 px-2"
          onClick={() => {
            setData(initial);
            setRelation(focused ? 'cited' : 'all');
            setSelected(null);
            setNotice(null);
            cy.current?.fit(undefined, 20);
          }}
        >
          Reset
        </button>
        <button
          type="button"
          className="rounded border border-slate-300 px-2"
          onClick={() => download(`${name}.json`, 'application/json', JSON.stringify(data, null, 2))}
        >
          Export JSON
        </button>
        <button
          type="button"
          className="rounded border border-slate-300 px-2"
          onClick={() => download(`${name}.graphml`, 'application/graphml+xml', toGraphML(data))}
        >
          Export GraphML
        </button>
      </div>
      <ul className="flex flex-wrap gap-3 text-xs text-slate-700" aria-label="Legend">
        {kinds.map(([k, n]) => (
          <li key={k} className="flex items-center gap-1">
            <span className="inline-block h-2.5 w-2.5 rounded-full" style={{ backgroundColor: kindColour(k) }} aria-hidden />
            {k} {n}
          </li>
        ))}
        {pathEdges.size > 0 && (
          <li className="flex items-center gap-1" data-testid="legend-path">
            <span className="inline-block h-1 w-4 rounded bg-orange-600" aria-hidden />
            causal path {edges.filter((e) => pathEdges.has(e.id)).length} edges
          </li>
        )}
        {merges.length > 0 && (
          <li className="flex items-center gap-1">
            <span className="inline-block w-4 border-t border-dashed border-slate-400" aria-hidden />
            merged names {merges.length}
          </li>
        )}
        <li className="text-slate-500">
          {nodes.length} nodes · {shown.length} edges{shown.length < edges.length ? ` · ${edges.length} tuples` : ''}
        </li>
      </ul>
      {notice && (
        <p role="status" className="text-xs text-slate-600">
          {notice}
        </p>
      )}
      {expand.isError && (
        <p role="alert" className="text-xs text-red-800">
          {expand.error.message}
        </p>
      )}
      <div className="h-[28rem] rounded border border-slate-200 bg-slate-50">
        <GraphCanvas
          nodes={nodes}
          edges={shown}
          path={pathEdges}
          selected={selected ? (selected.kind === 'edge' ? `edge:${selected.id}` : selected.id) : null}
          onNode={(id) => setSelected({ kind: 'node', id })}
          onEdge={(id) => setSelected({ kind: 'edge', id })}
          onReady={(c) => {
            cy.current = c;
          }}
        />
      </div>
      {node && (
        <div className="rounded border border-slate-200 p-2 text-sm" data-testid="graph-node">
          <p>
            <span className="font-medium">{node.label}</span> <span className="text-xs text-slate-500">{node.kind}</span>{' '}
            <span className="text-xs text-slate-500">· {shown.filter((e) => e.source === node.id || e.target === node.id).length} edges shown</span>
          </p>
          <button
            type="button"
            disabled={expand.isPending}
            onClick={() => expand.mutate(node.id)}
            className="mt-1 rounded border border-slate-300 px-2 text-xs disabled:opacity-50"
          >
            {expand.isPending ? 'Expanding…' : 'Expand neighbourhood'}
          </button>
        </div>
      )}
      {edge && (
        <div className="space-y-1 rounded border border-slate-200 p-2 text-sm" data-testid="graph-edge">
          <p className="font-medium">
            {edge.relation.replace(/_/g, ' ')} · {edgeTuples.length} tuple{edgeTuples.length === 1 ? '' : 's'}
          </p>
          <ul className="space-y-1">
            {edgeTuples.map((t) => (
              <li key={t.id}>
                <TupleItem t={t} />
              </li>
            ))}
          </ul>
        </div>
      )}
      <details className="text-xs">
        <summary className="cursor-pointer">
          Nodes ({nodes.length}) and edges ({shown.length}) as a list
        </summary>
        <div className="mt-1 grid grid-cols-2 gap-2">
          <ul aria-label="Nodes" className="space-y-0.5">
            {nodes.map((n) => (
              <li key={n.id}>
                <button type="button" className="text-left text-teal-800 hover:underline" onClick={() => setSelected({ kind: 'node', id: n.id })}>
                  {n.label}
                </button>{' '}
                <span className="text-slate-500">{n.kind}</span>
              </li>
            ))}
          </ul>
          <ul aria-label="Edges" className="space-y-0.5">
            {shown.map((e) => (
              <li key={e.id}>
                <button type="button" className="text-left text-teal-800 hover:underline" onClick={() => setSelected({ kind: 'edge', id: e.id })}>
                  {label(e.source)} — {edgeLabel(e)} → {label(e.target)}
                </button>
                {e.members.some((id) => pathEdges.has(id)) && <span className="ml-1 rounded bg-orange-100 px-1 text-orange-900">causal path</span>}
              </li>
            ))}
            {merges.map((m) => (
              <li key={m.id} className="text-slate-600">
                {label(m.source)} — same as → {label(m.target)} <span className="text-slate-500">(merged by canonical clustering)</span>
              </li>
            ))}
          </ul>
        </div>
      </details>
    </div>
  );
}
