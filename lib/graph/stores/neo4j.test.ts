import neo4j, { EagerResult, Record as Neo4jRecord, Relationship, int } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { describeGraphStoreContract, entity, tuple } from '../store.contract.ts';
import { createNeo4jGraphStore, type Neo4jQueryRunner } from './neo4j.ts';
import { emptyTestNeo4j } from '../../../scripts/test-support/neo4j.ts';

/**
 * Unit tests against a fake executeQuery that answers with the driver's own Record, Relationship and
 * EagerResult classes (no Neo4j server can run here). The shared contract runs against a real server when
 * NEO4J_URI is set.
 */
type Call = { query: string; params: Record<string, unknown>; config: Record<string, unknown> };

function fakeDriver(answer: (query: string, params: Record<string, unknown>) => { keys: string[]; rows: unknown[][] } = () => ({ keys: [], rows: [] })) {
  const calls: Call[] = [];
  let closed = false;
  const driver = {
    executeQuery: async (query: string, params: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => {
      calls.push({ query, params, config });
      const { keys, rows } = answer(query, params);
      return new EagerResult(
        keys,
        rows.map((r) => new Neo4jRecord(keys, r)),
        {} as never,
      );
    },
    close: async () => {
      closed = true;
    },
  } as unknown as Neo4jQueryRunner;
  return { driver, calls, isClosed: () => closed };
}

describe('Neo4j graph store (fake executeQuery)', () => {
  it('creates the uniqueness constraint and indexes with IF NOT EXISTS, as writes', async () => {
    const { driver, calls } = fakeDriver();
    await createNeo4jGraphStore(driver, { database: 'assay' }).ensureSchema();
    expect(calls.map((c) => c.query)).toEqual([
      expect.stringMatching(/^CREATE CONSTRAINT assay_entity_key IF NOT EXISTS FOR \(e:Entity\) REQUIRE e\.key IS UNIQUE$/),
      expect.stringMatching(/^CREATE INDEX assay_tuple_id IF NOT EXISTS/),
      expect.stringMatching(/^CREATE INDEX assay_tuple_paper IF NOT EXISTS/),
      expect.stringMatching(/^CREATE INDEX assay_tuple_relation IF NOT EXISTS/),
    ]);
    expect(calls.every((c) => c.config.routing === neo4j.routing.WRITE && c.config.database === 'assay')).toBe(true);
  });

  it('upserts in UNWIND batches of at most 1,000 rows with parameters, never values in the query text', async () => {
    const { driver, calls } = fakeDriver();
    const entities = Array.from({ length: 2500 }, (_, i) => ({
      key: `n:e${i}`,
      label: `e${i}'; DROP`,
      kind: 'concept',
      formula: null,
      surfaces: { [`e${i}`]: 1 },
    }));
    const tuples = [
      {
        id: 't1',
        subjectKey: 'n:e1',
        relation: 'causes',
        objectKey: 'n:e2',
        referenceRelation: null,
        referenceNode: null,
        value: 1.5,
        valueMax: 1.5,
        unit: 'K',
        causal: true,
        paperId: 'p',
        paragraphId: 'q',
        recordId: null,
        start: 0,
        end: 4,
        sentence: 'x',
        stamp: 's',
      },
    ];
    await createNeo4jGraphStore(driver).upsert({ entities, tuples });
    // Entities in three batches; the tuples' one batch as three statements: move, update, create (never MERGE between
    // two entities, which walks all their relationships).
    expect(calls).toHaveLength(6);
    expect(calls.slice(0, 3).map((c) => (c.params.rows as unknown[]).length)).toEqual([1000, 1000, 500]);
    expect(calls[0].query).toMatch(/^UNWIND \$rows AS row MERGE \(e:Entity \{key: row\.key\}\)/);
    expect(calls[3].query).toMatch(
      /MATCH \(s:Entity\)-\[r:TUPLE \{id: row\.props\.id\}\]->\(o:Entity\) WHERE s\.key <> row\.subjectKey OR o\.key <> row\.objectKey DELETE r/,
    );
    expect(calls[4].query).toMatch(/MATCH \(\)-\[r:TUPLE \{id: row\.props\.id\}\]->\(\) SET r \+= row\.props/);
    expect(calls[5].query).toMatch(
      /WHERE NOT EXISTS \{ MATCH \(\)-\[:TUPLE \{id: row\.props\.id\}\]->\(\) \} .*CREATE \(s\)-\[r:TUPLE\]->\(o\) SET r = row\.props/,
    );
    for (const c of calls.slice(3))
      expect(c.params.rows).toEqual([
        { subjectKey: 'n:e1', objectKey: 'n:e2', props: expect.objectContaining({ id: 't1', relation: 'causes', value: 1.5, causal: true }) },
      ]);
    for (const c of calls.slice(3)) expect(c.query).not.toMatch(/MERGE/);
    for (const c of calls) expect(c.query).not.toMatch(/DROP|e1'/);
  });

  it('maps records back to tuples (integers included) and passes LIMIT as a Neo4j integer', async () => {
    const rel = new Relationship(int(7), int(1), int(2), 'TUPLE', {
      id: 't9',
      relation: 'has_property',
      value: 823.15,
      valueMax: 823.15,
      unit: 'K',
      start: int(12),
      end: int(40),
      causal: false,
      paperId: 'p1',
      stamp: 's',
    });
    const { driver, calls } = fakeDriver((q) =>
      q.includes('RETURN s.key') ? { keys: ['subjectKey', 'objectKey', 'r'], rows: [['f:Ni', 'p:power-density', rel]] } : { keys: [], rows: [] },
    );
    const store = createNeo4jGraphStore(driver);
    const [t] = await store.tuplesTouching(['f:Ni'], 5);
    expect(t).toMatchObject({
      id: 't9',
      subjectKey: 'f:Ni',
      objectKey: 'p:power-density',
      relation: 'has_property',
      value: 823.15,
      unit: 'K',
      start: 12,
      end: 40,
      paperId: 'p1',
      referenceNode: null,
    });
    expect(neo4j.isInt(calls[0].params.limit)).toBe(true);
    expect(calls[0].config.routing).toBe(neo4j.routing.READ);
    expect(await store.tuplesTouching([], 5)).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('bounds variable-length paths with a checked integer and returns keys and tuple ids', async () => {
    const { driver, calls } = fakeDriver(() => ({
      keys: ['nodes', 'tupleIds'],
      rows: [
        [
          ['a', 'b', 'c'],
          ['t1', 't2'],
        ],
      ],
    }));
    const store = createNeo4jGraphStore(driver);
    expect(await store.paths('a', 'c', 3)).toEqual([{ nodes: ['a', 'b', 'c'], tupleIds: ['t1', 't2'] }]);
    expect(calls[0].query).toContain('[:TUPLE*1..3]');
    expect(calls[0].params).toMatchObject({ fromKey: 'a', toKey: 'c' });
    await expect(store.paths('a', 'c', 3.5)).rejects.toThrow(RangeError);
    await expect(store.paths('a', 'c', 99)).rejects.toThrow(/1 to 6/);
  });

  it('counts and closes the driver', async () => {
    const { driver, isClosed } = fakeDriver(() => ({ keys: ['n'], rows: [[int(3)]] }));
    const store = createNeo4jGraphStore(driver);
    expect(await store.counts()).toEqual({ entities: 3, tuples: 3 });
    await store.close();
    expect(isClosed()).toBe(true);
  });
});

const uri = process.env.NEO4J_URI;
if (!uri) {
  describe.skip('graph store contract: Neo4j (set NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD to run it against a server)', () => {
    it('needs a Neo4j server', () => {});
  });
} else {
  describeGraphStoreContract(`Neo4j at ${uri}`, async () => {
    const { driver, database } = await emptyTestNeo4j(uri);
    return createNeo4jGraphStore(driver, { database });
  });
  describe(`Neo4j at ${uri}: a second push`, () => {
    it('moves a tuple pushed again between other entities (a merge renamed one), keeping one tuple of that id', async () => {
      const { driver, database } = await emptyTestNeo4j(uri);
      const store = createNeo4jGraphStore(driver, { database });
      const first = tuple('t1', 'n:a', 'causes', 'n:b', { value: 1, paperId: 'p' });
      await store.ensureSchema();
      await store.upsert({ entities: [entity('n:a'), entity('n:b'), entity('n:c')], tuples: [first] });
      await store.upsert({ entities: [], tuples: [{ ...first, subjectKey: 'n:c', value: 2 }] });
      expect(await store.counts()).toEqual({ entities: 3, tuples: 1 });
      expect(await store.tuplesTouching(['n:a'], 10)).toEqual([]);
      expect((await store.tuplesTouching(['n:b'], 10)).map((t) => [t.id, t.subjectKey, t.objectKey, t.value])).toEqual([['t1', 'n:c', 'n:b', 2]]);
      await store.close();
    });
  });
}
