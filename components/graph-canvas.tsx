'use client';

import type { Core, ElementDefinition } from 'cytoscape';
import { useEffect, useMemo, useRef } from 'react';
import CytoscapeComponent from 'react-cytoscapejs';
import { edgeLabel, type GatheredEdge, type GraphNode, kindColour, mergeLinks } from '@/lib/graph/view';
import { placeNodes } from './graph-layout';

/** Edge colours per relation family (node colours per kind come from the graph view's `KIND_COLOURS`). */
const relationColour = (relation: string) =>
  /caus|increas|decreas|improv|reduc|lead/.test(relation) ? '#dc2626' : /property|measured/.test(relation) ? '#7c3aed' : '#64748b';

// The component places nothing itself: the canvas runs fcose when the elements change (see `placeNodes`).
const PRESET = { name: 'preset' };

/**
 * The cytoscape canvas (client only: cytoscape needs a window). Nodes styled by kind, edges labelled and coloured
 * by relation, the edges of `path` (a reasoning path) drawn thick, merged names joined by dashed "same as" links;
 * a click on a node or an edge is reported up. Nodes keep their places when more are added.
 */
/**
 * Labels stay readable on screen at any zoom: a fitted graph of a hundred nodes is drawn at a third of its size,
 * where fixed 10-pixel labels became 3-pixel smudges. Node labels keep about 12 screen pixels (between 10 and 36
 * model pixels), edge labels about 10, and edge labels are hidden when zoomed far out (except on the causal path and
 * the selection), where they only overlapped. The rendered size is written on the container (data-label-px) for the
 * browser tests.
 */
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const nodeFontSize = (ele: cytoscape.SingularElementArgument) => clamp(12 / ele.cy().zoom(), 10, 36);
const edgeFontSize = (ele: cytoscape.SingularElementArgument) => clamp(10 / ele.cy().zoom(), 8, 28);
const labelWidth = (ele: cytoscape.SingularElementArgument) => `${clamp(140 / ele.cy().zoom(), 120, 420)}px`;
const edgeTextOpacity = (ele: cytoscape.SingularElementArgument) => {
  const cy = ele.cy();
  // Beyond twenty edges their labels only overlap: they show when zoomed in, or on the path and the selection.
  const roomy = cy.edges().length <= 20 ? cy.zoom() >= 0.55 : cy.zoom() >= 1.4;
  return roomy || ele.hasClass('path') || ele.hasClass('selected') ? 1 : 0;
};

function keepLabelsLegible(cy: Core) {
  cy.style().update();
  cy.container()?.setAttribute('data-label-px', String(Math.round(clamp(12 / cy.zoom(), 10, 36) * cy.zoom() * 10) / 10));
  cy.container()?.setAttribute('data-zoom', String(Math.round(cy.zoom() * 100) / 100));
}

export default function GraphCanvas({
  nodes,
  edges,
  path,
  selected,
  onNode,
  onEdge,
  onReady,
}: {
  nodes: GraphNode[];
  /** Edges with their parallel tuples gathered (gatherEdges): one curve per subject, relation and object. */
  edges: GatheredEdge[];
  /** Edge (tuple) ids of the causal path to highlight. */
  path?: ReadonlySet<string>;
  selected: string | null;
  onNode: (id: string) => void;
  onEdge: (id: string) => void;
  onReady: (cy: Core) => void;
}) {
  const cyRef = useRef<Core | null>(null);
  const placed = useRef(new Map<string, { x: number; y: number }>());
  const handlers = useRef({ onNode, onEdge });
  handlers.current = { onNode, onEdge };
  const elements = useMemo<ElementDefinition[]>(() => {
    const onPathEdge = (e: GatheredEdge) => e.members.some((id) => path?.has(id));
    const onPath = new Set(edges.filter(onPathEdge).flatMap((e) => [e.source, e.target]));
    return [
      ...nodes.map((n) => ({ data: { id: n.id, label: n.label, colour: kindColour(n.kind) }, classes: onPath.has(n.id) ? 'path' : '' })),
      ...edges.map((e) => ({
        data: {
          id: `edge:${e.id}`,
          source: e.source,
          target: e.target,
          label: edgeLabel(e),
          colour: relationColour(e.relation),
          // A gathered edge is drawn a little heavier the more tuples it stands for.
          weight: Math.min(5, 1.5 + Math.log2(e.members.length)),
        },
        classes: onPathEdge(e) ? 'path' : '',
      })),
      ...mergeLinks(nodes).map((m) => ({
        data: { id: m.id, source: m.source, target: m.target, label: 'same as', colour: '#94a3b8', weight: 1 },
        classes: 'merge',
      })),
    ];
  }, [nodes, edges, path]);
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
    if (!cyRef.current) return;
    placeNodes(cyRef.current, placed.current, nodes.length);
    keepLabelsLegible(cyRef.current);
  }, [elements]);

  return (
    <CytoscapeComponent
      elements={elements}
      layout={PRESET}
      style={{ width: '100%', height: '100%' }}
      minZoom={0.2}
      maxZoom={2}
      stylesheet={[
        {
          selector: 'node',
          style: {
            'background-color': 'data(colour)',
            label: 'data(label)',
            'font-size': nodeFontSize,
            color: '#0f172a',
            'text-wrap': 'ellipsis',
            'text-max-width': labelWidth,
            'text-background-color': '#f8fafc',
            'text-background-opacity': 0.7,
            'text-valign': 'bottom',
            'text-margin-y': 3,
            // A click on a node's label selects the node: without it the click fell through to an edge beneath.
            'text-events': 'yes',
            'z-index': 20,
            width: 22,
            height: 22,
          },
        },
        {
          selector: 'edge',
          style: {
            width: 'data(weight)',
            'line-color': 'data(colour)',
            'target-arrow-color': 'data(colour)',
            'target-arrow-shape': 'triangle',
            'curve-style': 'bezier',
            label: 'data(label)',
            'font-size': edgeFontSize,
            'text-opacity': edgeTextOpacity,
            color: '#334155',
            'text-rotation': 'autorotate',
            'text-background-color': '#ffffff',
            'text-background-opacity': 0.8,
          },
        },
        { selector: 'edge.path', style: { width: 4, 'line-color': '#ea580c', 'target-arrow-color': '#ea580c', 'z-index': 10 } },
        { selector: 'node.path', style: { 'border-width': 3, 'border-color': '#ea580c' } },
        { selector: 'edge.merge', style: { 'line-style': 'dashed', 'target-arrow-shape': 'none', width: 1 } },
        { selector: '.selected', style: { 'border-width': 3, 'border-color': '#f59e0b', 'line-color': '#f59e0b', 'target-arrow-color': '#f59e0b' } },
      ]}
      cy={(cy) => {
        if (cyRef.current === cy) return;
        cyRef.current = cy;
        cy.on('tap', 'node', (e) => handlers.current.onNode(e.target.id()));
        cy.on('tap', 'edge', (e) => {
          const id = String(e.target.id());
          if (id.startsWith('edge:')) handlers.current.onEdge(id.slice('edge:'.length));
        });
        // A node the reader drags stays where it was put.
        cy.on('dragfree', 'node', (e) => placed.current.set(e.target.id(), { ...e.target.position() }));
        // Label sizes depend on the zoom (see nodeFontSize): recomputed once per frame while zooming.
        let frame = 0;
        cy.on('zoom', () => {
          if (frame) return;
          frame = requestAnimationFrame(() => {
            frame = 0;
            keepLabelsLegible(cy);
          });
        });
        onReady(cy);
      }}
    />
  );
}
