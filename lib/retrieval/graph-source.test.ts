import { describe, expect, it } from 'vitest';
import type { RetrievalTupleRow } from '../db/graph-views.ts';
import { sparse, sparseDot } from '../embedding/embedder.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../embedding/local-hash.ts';
import { asOnePage, tupleRow } from '../testing/retrieval-fixtures.ts';
import { lazyGraphIndex } from './graph-index.ts';
import { countTermMatches, embeddedGraphSource } from './graph-source.ts';

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
