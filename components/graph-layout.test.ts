import cytoscape from 'cytoscape';
import { describe, expect, it } from 'vitest';
import { placeNodes } from './graph-layout.ts';

const nodes = (ids: string[]) => ids.map((id) => ({ group: 'nodes' as const, data: { id } }));
const edges = (pairs: [string, string][]) => pairs.map(([s, t]) => ({ group: 'edges' as const, data: { id: `${s}>${t}`, source: s, target: t } }));

describe('placeNodes', () => {
  it('keeps the nodes already placed where they were when a neighbourhood is added, and places the new ones near it', () => {
    const cy = cytoscape({
      headless: true,
      styleEnabled: true,
      elements: [
        ...nodes(['a', 'b', 'c']),
        ...edges([
          ['a', 'b'],
          ['b', 'c'],
        ]),
      ],
    });
    const placed = new Map<string, { x: number; y: number }>();
    placeNodes(cy, placed, 3);
    const before = new Map(cy.nodes().map((n) => [n.id(), { ...n.position() }]));
    expect(new Set([...before.values()].map((p) => `${Math.round(p.x)},${Math.round(p.y)}`)).size).toBe(3);

    // An expansion of c: three new nodes around it.
    cy.add([
      ...nodes(['d', 'e', 'f']),
      ...edges([
        ['c', 'd'],
        ['c', 'e'],
        ['c', 'f'],
      ]),
    ]);
    placeNodes(cy, placed, 6);
    for (const [id, p] of before) {
      expect(cy.getElementById(id).position().x).toBeCloseTo(p.x, 0);
      expect(cy.getElementById(id).position().y).toBeCloseTo(p.y, 0);
    }
    const c = cy.getElementById('c').position();
    const a = cy.getElementById('a').position();
    const span = Math.hypot(a.x - c.x, a.y - c.y);
    for (const id of ['d', 'e', 'f']) {
      const p = cy.getElementById(id).position();
      // Near the expanded node, not thrown to a random corner.
      expect(Math.hypot(p.x - c.x, p.y - c.y)).toBeLessThan(Math.max(span, 150) * 2);
    }

    // A filter that hides nodes and shows them again brings them back where they were.
    const dPos = { ...cy.getElementById('d').position() };
    cy.remove(cy.getElementById('d'));
    placeNodes(cy, placed, 5);
    cy.add([...nodes(['d']), ...edges([['c', 'd']])]);
    placeNodes(cy, placed, 6);
    expect(cy.getElementById('d').position()).toEqual(dPos);
  });
});
