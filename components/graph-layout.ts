import cytoscape, { type Core } from 'cytoscape';
import fcose from 'cytoscape-fcose';
import { seededRandom } from '@/lib/common/random';

cytoscape.use(fcose);

/** Above this many nodes fcose runs in draft quality (0.3 s instead of 0.9 s at 500 nodes, per STACK.md). */
const DRAFT_ABOVE = 200;

/** A seed from the graph's node ids, so one view is laid out the same way every time it is opened. */
function seedOf(ids: string[]): number {
  let h = 2166136261;
  for (const id of [...ids].sort()) for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * Runs a layout with Math.random seeded: fcose draws random numbers (its spectral start, cose's shuffles) and has no
 * seed option, so a view was laid out differently on every load. The layout runs synchronously (animate: false),
 * so the real generator is back before anything else runs.
 */
function runSeeded(layout: cytoscape.Layouts, seed: number) {
  const random = Math.random;
  Math.random = seededRandom(seed);
  try {
    layout.run();
  } finally {
    Math.random = random;
  }
}

/**
 * Lays the graph out so that what the reader has already seen stays where it was: the first time, fcose from
 * seeded random positions (the same view gets the same picture on every load); after an expansion (or a filter bringing nodes back), the nodes placed before keep their
 * positions (fcose's fixed-node constraint) and the new ones start beside a neighbour already placed.
 */
export function placeNodes(cy: Core, placed: Map<string, { x: number; y: number }>, count: number) {
  const fresh = cy.nodes().filter((n) => !placed.has(n.id()));
  const old = cy.nodes().filter((n) => placed.has(n.id()));
  for (const n of old) n.position({ ...placed.get(n.id())! });
  if (fresh.nonempty()) {
    const incremental = old.nonempty();
    if (incremental) {
      const centre = old.boundingBox();
      fresh.forEach((n, i) => {
        const anchor = n.neighborhood('node').filter((m) => placed.has(m.id()));
        const at = anchor.nonempty() ? placed.get(anchor.first().id())! : { x: (centre.x1 + centre.x2) / 2, y: (centre.y1 + centre.y2) / 2 };
        // Spread the newcomers around their anchor, so fcose starts from a sensible, untangled place.
        const angle = (2 * Math.PI * i) / fresh.length;
        n.position({ x: at.x + 60 * Math.cos(angle), y: at.y + 60 * Math.sin(angle) });
      });
    }
    const layout = cy.layout({
      name: 'fcose',
      animate: false,
      // Room for the labels by longer edges and stronger repulsion than the defaults; not by measuring the labels,
      // whose width depends on when the page's font arrived (the same view was placed differently on a reload).
      idealEdgeLength: 90,
      nodeRepulsion: 9000,
      padding: 20,
      // fcose needs "proof" quality to start from given positions.
      quality: incremental ? 'proof' : count > DRAFT_ABOVE ? 'draft' : 'default',
      randomize: !incremental,
      fit: !incremental,
      ...(incremental ? { fixedNodeConstraint: old.map((n) => ({ nodeId: n.id(), position: { ...placed.get(n.id())! } })) } : {}),
    } as cytoscape.LayoutOptions);
    runSeeded(layout, seedOf(cy.nodes().map((n) => n.id())));
  }
  for (const n of cy.nodes()) placed.set(n.id(), { ...n.position() });
}
