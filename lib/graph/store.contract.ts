import { describe, expect, it } from 'vitest';
import type { StoredEntity, StoredTuple } from '../db/graph.ts';
import type { GraphStore } from './store.ts';

/**
 * The behaviour every graph store must have, run against each implementation: the embedded store always, Neo4j
 * when NEO4J_URI is set. `open` gives a store on an empty graph.
 */
/** An entity and a tuple as a store is given them (the other fields empty), for the stores' tests. */
export const entity = (key: string, kind = 'material'): StoredEntity => ({ key, label: key.slice(2), kind, formula: null, surfaces: { [key.slice(2)]: 1 } });
export const tuple = (id: string, s: string, relation: string, o: string, extra: Partial<StoredTuple> = {}): StoredTuple => ({
  id,
  subjectKey: s,
  relation,
  objectKey: o,
  referenceRelation: null,
  referenceNode: null,
  value: null,
  valueMax: null,
  unit: null,
  causal: false,
  paperId: null,
  paragraphId: null,
  recordId: null,
  start: null,
  end: null,
  sentence: null,
  stamp: 'contract',
  ...extra,
});

// Invented chain in the spirit of "PHBV → 3HV → Tm": copolymer X contains unit Y, Y lowers the melting point.
const entities = [entity('n:copolymer x'), entity('n:unit y'), entity('p:melting-point', 'property'), entity('n:solvent', 'concept'), entity('f:CHCl3')];
const tuples = [
  tuple('t1', 'n:copolymer x', 'part_of', 'n:unit y', { paperId: 'paper-1', paragraphId: 'para-1', sentence: 'X contains Y.', start: 0, end: 13 }),
  tuple('t2', 'n:unit y', 'decreases', 'p:melting-point', { causal: true, paperId: 'paper-1', paragraphId: 'para-2' }),
  tuple('t3', 'f:CHCl3', 'used_as', 'n:solvent', { referenceRelation: 'in_synthesis_of', referenceNode: 'X', paperId: 'paper-2' }),
  tuple('t4', 'n:copolymer x', 'has_property', 'p:melting-point', {
    value: 423.15,
    valueMax: 433.15,
    unit: 'K',
    referenceRelation: 'measured_at',
    referenceNode: '1 atm',
    paperId: 'paper-2',
  }),
];

export function describeGraphStoreContract(name: string, open: () => Promise<GraphStore>) {
  describe(`graph store contract: ${name}`, () => {
    it('stores entities and tuples, idempotently', async () => {
      const store = await open();
      await store.ensureSchema();
      await store.ensureSchema();
      await store.upsert({ entities, tuples });
      await store.upsert({ entities, tuples });
      expect(await store.counts()).toEqual({ entities: 5, tuples: 4 });
      await store.close();
    });
    it('returns the tuples touching an entity with every field intact', async () => {
      const store = await open();
      await store.upsert({ entities, tuples });
      const found = await store.tuplesTouching(['p:melting-point'], 10);
      expect(found.map((t) => t.id)).toEqual(['t2', 't4']);
      expect(found[1]).toMatchObject({
        subjectKey: 'n:copolymer x',
        relation: 'has_property',
        objectKey: 'p:melting-point',
        value: 423.15,
        valueMax: 433.15,
        unit: 'K',
        referenceRelation: 'measured_at',
        referenceNode: '1 atm',
        paperId: 'paper-2',
      });
      expect(found[0]).toMatchObject({ causal: true, relation: 'decreases' });
      expect(await store.tuplesTouching(['n:nothing'], 10)).toEqual([]);
      expect(await store.tuplesTouching(['p:melting-point'], 1)).toHaveLength(1);
      await store.close();
    });
    it('finds multi-hop paths within the hop limit, following edges either way', async () => {
      const store = await open();
      await store.upsert({ entities, tuples });
      const paths = await store.paths('n:copolymer x', 'p:melting-point', 2);
      expect(paths.map((p) => p.tupleIds)).toEqual([['t4'], ['t1', 't2']]);
      expect(paths[1].nodes).toEqual(['n:copolymer x', 'n:unit y', 'p:melting-point']);
      expect((await store.paths('n:unit y', 'n:copolymer x', 1)).map((p) => p.tupleIds)).toEqual([['t1']]);
      expect(await store.paths('n:copolymer x', 'n:solvent', 3)).toEqual([]);
      await expect(store.paths('n:copolymer x', 'p:melting-point', 0)).rejects.toThrow(/maxHops/);
      await store.close();
    });
    it('removes the tuples of re-extracted papers', async () => {
      const store = await open();
      await store.upsert({ entities, tuples });
      await store.deleteTuplesOfPapers(['paper-1']);
      expect((await store.tuplesTouching(['n:copolymer x', 'n:unit y'], 10)).map((t) => t.id)).toEqual(['t4']);
      expect(await store.paths('n:copolymer x', 'n:unit y', 2)).toEqual([]);
      await store.close();
    });
  });
}
