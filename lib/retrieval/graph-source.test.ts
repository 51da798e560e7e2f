import { describe, expect, it } from 'vitest';
import type { RetrievalTupleRow } from '../db/graph-views.ts';
import { sparse, sparseDot } from '../embedding/embedder.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../embedding/local-hash.ts';
import { asOnePage, tupleRow } from '../../scripts/test-support/retrieval-fixtures.ts';
import { lazyGraphIndex } from './graph-index.ts';
import { countTermMatches, embeddedGraphSource, HUB_DEGREE, MAX_FRONTIER, shortPaths } from './graph-source.ts';
import type { GraphIndex } from './graph-index.ts';

// Invented entities (no corpus text).
const names = ['lanthanum strontium manganite', 'LSM cathode', 'yttria-stabilised zirconia', 'nickel foam', 'gadolinium-doped ceria', 'power density'];
const rows: RetrievalTupleRow[] = names
  .slice(1)
  .map((name, i) => tupleRow(`t${i}`, [`n:${i}`, name], 'related_to', [`n:s${i}`, names[0]], `paper-${i}:p${i % 2}`));

describe('embedded graph source', () => {
  it('scores entity labels against probes exactly as a sparse dot product, with each entity’s best probe', async () => {
    const embedder = localTextEmbedder(fitLocalHashEmbedder(names));
    const graph = await lazyGraphIndex(asOnePage(rows), embedder).get();
    const probes = await embedder.embed(['manganite cathode', 'doped ceria electrolyte']);
    const found = await embeddedGraphSource(graph).similarEntities(probes, 0.2);
    expect(found.length).toBeGreaterThan(0);
    for (const e of graph.entities) {
      const expected = Math.max(...probes.map((p) => sparseDot(sparse(p), e.vector)));
      const hit = found.find((f) => f.key === e.key);
      if (expected >= 0.2) expect(hit?.cosine).toBe(expected);
      else expect(hit).toBeUndefined();
    }
  });

  it('lists the tuples read from given paragraphs', async () => {
    const embedder = localTextEmbedder(fitLocalHashEmbedder(names));
    const source = embeddedGraphSource(await lazyGraphIndex(asOnePage(rows), embedder).get());
    expect((await source.paragraphTuples(['paper-0:p0', 'paper-3:p1', 'no-such-paragraph'])).sort()).toEqual(['t0', 't3']);
    expect(await source.paragraphTuples([])).toEqual([]);
  });

  it('counts the terms each tuple holds by ordinal exactly as counting the postings by id', async () => {
    const embedder = localTextEmbedder(fitLocalHashEmbedder(names));
    const graph = await lazyGraphIndex(asOnePage(rows), embedder).get();
    const source = embeddedGraphSource(graph);
    const terms = [...graph.byTerm.keys()];
    expect(terms.length).toBeGreaterThan(10);
    // The shared word is held by every tuple, others by one: caps and minimums that keep and drop each.
    const question = ['relat', 'cathod', 'lsm', 'zirconia', 'no-such-term', 'relat'].filter((t) => t === 'no-such-term' || graph.byTerm.has(t));
    expect(question.length).toBeGreaterThan(3);
    for (const cap of [Infinity, 2, 0])
      for (const min of [0, 1, 2, 3]) {
        const byOrdinal = await source.termMatches(question, cap, min);
        const byId = countTermMatches(await source.termPostings(question, cap), min);
        expect(new Map([...byOrdinal.matches].sort()), `cap ${cap}, min ${min}`).toEqual(new Map([...byId.matches].sort()));
        expect(byOrdinal.postingSizes).toEqual(byId.postingSizes);
      }
    const everyTuple = await source.termMatches(question, Infinity, 1);
    expect(everyTuple.matches.size).toBe(rows.length);
    expect(Math.max(...everyTuple.matches.values())).toBeGreaterThan(1);
    expect((await source.termMatches(question, 2, 1)).postingSizes.has('relat')).toBe(false);
  });

  it('finds no similar entity in a graph that has none', async () => {
    const embedder = localTextEmbedder(fitLocalHashEmbedder(names));
    const source = embeddedGraphSource(await lazyGraphIndex(asOnePage([]), embedder).get());
    expect(await source.similarEntities(await embedder.embed(['manganite cathode']), 0.2)).toEqual([]);
  });
});

/** Paths as found by walking every frontier node's edges on every hop, the last one too (the search before it read the target's edges instead). */
function walkedPaths(
  adjacency: Map<string, [string, string][]>,
  from: string,
  to: string,
  maxHops: number,
  limit: number,
  maxFrontier = MAX_FRONTIER,
): string[] {
  type Step = { node: string; edge: string | null; prev: Step | null };
  const out = new Set<string>();
  let frontier: Step[] = [{ node: from, edge: null, prev: null }];
  let found = 0;
  const through = (s: Step, n: string) => {
    for (let x: Step | null = s; x; x = x.prev) if (x.node === n) return true;
    return false;
  };
  for (let depth = 0; depth < maxHops && frontier.length && found < limit; depth++) {
    const next: Step[] = [];
    const last = depth === maxHops - 1;
    for (const f of frontier)
      for (const [n, id] of adjacency.get(f.node) ?? []) {
        if (n === to) {
          const edges: string[] = [];
          for (let x: Step | null = f; x?.edge; x = x.prev) edges.push(x.edge);
          for (const e of edges.reverse()) out.add(e);
          out.add(id);
          if (++found >= limit) return [...out];
          continue;
        }
        if (last || next.length >= maxFrontier || through(f, n) || (adjacency.get(n)?.length ?? 0) > HUB_DEGREE) continue;
        next.push({ node: n, edge: id, prev: f });
      }
    frontier = next;
  }
  return [...out];
}

describe('multi-hop paths', () => {
  it('finds the tuples on the paths walking finds, in its order, on random graphs with parallel edges', () => {
    let seed = 17;
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    let compared = 0;
    for (let g = 0; g < 20; g++) {
      const adjacency = new Map<string, [string, string][]>();
      const nodes = 30 + Math.floor(next() * 60);
      for (let t = 0; t < nodes * 3; t++) {
        // A few nodes take most edges, so some pass the hub degree; some pairs have several tuples.
        const a = `e${Math.floor(next() ** 2 * nodes)}`;
        const b = `e${Math.floor(next() * nodes)}`;
        if (a === b) continue;
        for (const [x, y] of [
          [a, b],
          [b, a],
        ]) {
          const list = adjacency.get(x) ?? [];
          list.push([y, `t${t}`]);
          adjacency.set(x, list);
        }
      }
      const graph = { adjacency } as unknown as GraphIndex;
      for (let q = 0; q < 20; q++) {
        const from = `e${Math.floor(next() * nodes)}`;
        const to = `e${Math.floor(next() * nodes)}`;
        for (const [hops, limit] of [
          [3, 20],
          [2, 5],
          [3, 1000],
        ]) {
          const expected = walkedPaths(adjacency, from, to, hops, limit);
          expect(shortPaths(graph, from, to, hops, limit)).toEqual(expected);
          if (expected.length) compared++;
          // A hop that fills up (here at a few partial paths) reads its remaining nodes' edges to the target from the
          // target's side: the same paths, in the same order, as walking them.
          for (const cap of [1, 3, 8]) expect(shortPaths(graph, from, to, hops, limit, cap)).toEqual(walkedPaths(adjacency, from, to, hops, limit, cap));
        }
      }
    }
    expect(compared).toBeGreaterThan(300);
  });
});
