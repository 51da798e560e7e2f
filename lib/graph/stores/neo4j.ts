import type { Driver } from 'neo4j-driver';
import { requireFromRoot } from '../../common/root-require.ts';
import type { StoredEntity, StoredTuple } from '../../db/graph.ts';
import { checkHops, type GraphPath, type GraphStore } from '../store.ts';

/**
 * The Neo4j graph store, through neo4j-driver's executeQuery (one transaction per call, retried by the driver on
 * transient errors). Entities are (:Entity {key}) nodes under a uniqueness constraint; tuples are [:TUPLE {id}]
 * relationships carrying relation, reference, value and provenance. Writes go in batches of UNWIND rows; every
 * query is parameterised — only the hop bound of variable-length paths, which Cypher cannot take as a
 * parameter, is written into the query, after checking it is a small integer.
 */
export type Neo4jQueryRunner = Pick<Driver, 'executeQuery' | 'close'>;

type Neo4jPackage = typeof import('neo4j-driver').default;

/** neo4j-driver, required when Neo4j is first used: it and rxjs took ~0.3 s of every start, configured or not. */
export function neo4j(): Neo4jPackage {
  return requireFromRoot<Neo4jPackage>('neo4j-driver');
}

const BATCH = 1000;

export function createNeo4jGraphStore(driver: Neo4jQueryRunner, opts: { database?: string } = {}): GraphStore {
  const config = (write: boolean) => ({ database: opts.database, routing: write ? neo4j().routing.WRITE : neo4j().routing.READ });
  const run = (query: string, params: Record<string, unknown>, write = false) => driver.executeQuery(query, params, config(write));
  const toTuple = (r: { get(key: string): unknown }): StoredTuple => {
    const props = (r.get('r') as { properties: Record<string, unknown> }).properties;
    const num = (v: unknown) => (v === null || v === undefined ? null : neo4j().isInt(v) ? (v as { toNumber(): number }).toNumber() : Number(v));
    return {
      id: String(props.id),
      subjectKey: String(r.get('subjectKey')),
      relation: String(props.relation),
      objectKey: String(r.get('objectKey')),
      referenceRelation: (props.referenceRelation as string) ?? null,
      referenceNode: (props.referenceNode as string) ?? null,
      value: num(props.value),
      valueMax: num(props.valueMax),
      unit: (props.unit as string) ?? null,
      causal: Boolean(props.causal),
      paperId: (props.paperId as string) ?? null,
      paragraphId: (props.paragraphId as string) ?? null,
      recordId: (props.recordId as string) ?? null,
      start: num(props.start),
      end: num(props.end),
      sentence: (props.sentence as string) ?? null,
      stamp: String(props.stamp ?? ''),
    };
  };
  return {
    kind: 'neo4j',
    async ensureSchema() {
      await run('CREATE CONSTRAINT assay_entity_key IF NOT EXISTS FOR (e:Entity) REQUIRE e.key IS UNIQUE', {}, true);
      await run('CREATE INDEX assay_tuple_id IF NOT EXISTS FOR ()-[r:TUPLE]-() ON (r.id)', {}, true);
      await run('CREATE INDEX assay_tuple_paper IF NOT EXISTS FOR ()-[r:TUPLE]-() ON (r.paperId)', {}, true);
      await run('CREATE INDEX assay_tuple_relation IF NOT EXISTS FOR ()-[r:TUPLE]-() ON (r.relation)', {}, true);
    },
    async upsert({ entities, tuples }) {
      for (let i = 0; i < entities.length; i += BATCH) {
        const rows = entities
          .slice(i, i + BATCH)
          .map((e: StoredEntity) => ({ key: e.key, label: e.label, kind: e.kind, formula: e.formula, surfaces: Object.keys(e.surfaces) }));
        await run(
          'UNWIND $rows AS row MERGE (e:Entity {key: row.key}) ON CREATE SET e.label = row.label, e.kind = row.kind, e.formula = row.formula, e.surfaces = row.surfaces ' +
            'ON MATCH SET e.surfaces = e.surfaces + [s IN row.surfaces WHERE NOT s IN e.surfaces]',
          { rows },
          true,
        );
      }
      // Tuples are found by their id through its index, never by MERGE between their two entities: that walks every
      // relationship the pair has, which grew with the square of a busy pair's tuples (pushing the 392,151 tuples of
      // ten times the shared corpus took 20 minutes). A tuple whose entities changed is moved; one already there is
      // updated; a new one is created.
      for (let i = 0; i < tuples.length; i += BATCH) {
        const rows = tuples.slice(i, i + BATCH).map(({ subjectKey, objectKey, ...props }) => ({ subjectKey, objectKey, props }));
        await run(
          'UNWIND $rows AS row MATCH (s:Entity)-[r:TUPLE {id: row.props.id}]->(o:Entity) WHERE s.key <> row.subjectKey OR o.key <> row.objectKey DELETE r',
          { rows },
          true,
        );
        await run('UNWIND $rows AS row MATCH ()-[r:TUPLE {id: row.props.id}]->() SET r += row.props', { rows }, true);
        await run(
          'UNWIND $rows AS row WITH row WHERE NOT EXISTS { MATCH ()-[:TUPLE {id: row.props.id}]->() } ' +
            'MATCH (s:Entity {key: row.subjectKey}) MATCH (o:Entity {key: row.objectKey}) CREATE (s)-[r:TUPLE]->(o) SET r = row.props',
          { rows },
          true,
        );
      }
    },
    async deleteTuplesOfPapers(paperIds) {
      if (paperIds.length) await run('MATCH ()-[r:TUPLE]->() WHERE r.paperId IN $paperIds DELETE r', { paperIds }, true);
    },
    async tuplesTouching(keys, limit) {
      if (keys.length === 0) return [];
      const { records } = await run(
        'MATCH (s:Entity)-[r:TUPLE]->(o:Entity) WHERE s.key IN $keys OR o.key IN $keys RETURN s.key AS subjectKey, o.key AS objectKey, r ORDER BY r.id LIMIT $limit',
        { keys, limit: neo4j().int(limit) },
      );
      return records.map(toTuple);
    },
    async paths(fromKey, toKey, maxHops, limit = 50) {
      const hops = checkHops(maxHops);
      const { records } = await run(
        `MATCH p = (a:Entity {key: $fromKey})-[:TUPLE*1..${hops}]-(b:Entity {key: $toKey}) WHERE a <> b ` +
          'RETURN [n IN nodes(p) | n.key] AS nodes, [r IN relationships(p) | r.id] AS tupleIds ORDER BY length(p) LIMIT $limit',
        { fromKey, toKey, limit: neo4j().int(limit) },
      );
      return records.map((r): GraphPath => ({ nodes: r.get('nodes') as string[], tupleIds: r.get('tupleIds') as string[] }));
    },
    async counts() {
      const e = await run('MATCH (e:Entity) RETURN count(e) AS n', {});
      const t = await run('MATCH ()-[r:TUPLE]->() RETURN count(r) AS n', {});
      const n = (x: unknown) => (neo4j().isInt(x) ? (x as { toNumber(): number }).toNumber() : Number(x));
      return { entities: n(e.records[0].get('n')), tuples: n(t.records[0].get('n')) };
    },
    close: () => driver.close(),
  };
}

/** A driver for NEO4J_URI with basic auth. */
export function neo4jDriver(cfg: { uri: string; user: string; password: string }): Driver {
  return neo4j().driver(cfg.uri, neo4j().auth.basic(cfg.user, cfg.password), { disableLosslessIntegers: false });
}
