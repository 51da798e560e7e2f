'use client';

import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import fcose from 'cytoscape-fcose';
import { useEffect, useMemo, useRef } from 'react';
import CytoscapeComponent from 'react-cytoscapejs';
import { type GraphEdge, type GraphNode, kindColour } from '@/lib/graph/view';

cytoscape.use(fcose);

/** Edge colours per relation family (node colours per kind come from the graph view's `KIND_COLOURS`). */
const relationColour = (relation: string) =>
  /caus|increas|decreas|improv|reduc|lead/.test(relation) ? '#dc2626' : /property|measured/.test(relation) ? '#7c3aed' : '#64748b';

/** Above this many nodes fcose runs in draft quality (0.3 s instead of 0.9 s at 500 nodes, per STACK.md). */
const DRAFT_ABOVE = 200;

/**
 * The cytoscape canvas (client only: cytoscape needs a window). Nodes styled by kind, edges labelled and coloured
 * by relation; a click on a node or an edge is reported up.
 */
export default function GraphCanvas({
  nodes,
  edges,
  selected,
  onNode,
  onEdge,
  onReady,
}: {
  nodes: GraphNode[];
  edges: GraphEdge[];
  selected: string | null;
  onNode: (id: string) => void;
  onEdge: (id: string) => void;
  onReady: (cy: Core) => void;
}) {
  const cyRef = useRef<Core | null>(null);
  const handlers = useRef({ onNode, onEdge });
  handlers.current = { onNode, onEdge };
  const elements = useMemo<ElementDefinition[]>(
    () => [
      ...nodes.map((n) => ({ data: { id: n.id, label: n.label, colour: kindColour(n.kind) } })),
      ...edges.map((e) => ({
        data: { id: `edge:${e.id}`, source: e.source, target: e.target, label: e.relation.replace(/_/g, ' '), colour: relationColour(e.relation) },
      })),
    ],
    [nodes, edges],
  );
  const layout = useMemo(() => ({ name: 'fcose', quality: nodes.length > DRAFT_ABOVE ? 'draft' : 'default', animate: false, randomize: true }), [nodes.length]);
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.batch(() => {
      cy.elements().removeClass('selected');
      if (selected) cy.getElementById(selected).addClass('selected');
    });
  }, [selected]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the layout runs again when the elements change (an expansion adds nodes)
  useEffect(() => {
    cyRef.current?.layout(layout as cytoscape.LayoutOptions).run();
  }, [elements, layout]);

  return (
    <CytoscapeComponent
      elements={elements}
      layout={layout as cytoscape.LayoutOptions}
      style={{ width: '100%', height: '100%' }}
      minZoom={0.2}
      maxZoom={2}
      stylesheet={[
        {
          selector: 'node',
          style: {
            'background-color': 'data(colour)',
            label: 'data(label)',
            'font-size': 10,
            color: '#0f172a',
            'text-valign': 'bottom',
            'text-margin-y': 3,
            width: 18,
            height: 18,
          },
        },
        {
          selector: 'edge',
          style: {
            width: 1.5,
            'line-color': 'data(colour)',
            'target-arrow-color': 'data(colour)',
            'target-arrow-shape': 'triangle',
            'curve-style': 'bezier',
            label: 'data(label)',
            'font-size': 8,
            color: '#334155',
            'text-rotation': 'autorotate',
            'text-background-color': '#ffffff',
            'text-background-opacity': 0.8,
          },
        },
        { selector: '.selected', style: { 'border-width': 3, 'border-color': '#f59e0b', 'line-color': '#f59e0b', 'target-arrow-color': '#f59e0b' } },
      ]}
      cy={(cy) => {
        if (cyRef.current === cy) return;
        cyRef.current = cy;
        cy.on('tap', 'node', (e) => handlers.current.onNode(e.target.id()));
        cy.on('tap', 'edge', (e) => handlers.current.onEdge(String(e.target.id()).replace(/^edge:/, '')));
        onReady(cy);
      }}
    />
  );
}
