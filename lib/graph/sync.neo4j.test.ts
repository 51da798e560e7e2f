import neo4j from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { runIngest } from '../jobs/import-job.ts';
import { openTestDatabase } from '../testing/database.ts';
import { corpusPapers, recipeRows, tempDir, writeCorpusJsonl, writeRecordsJsonl } from '../testing/fixtures.ts';
import type { GraphStore } from './store.ts';
import { createEmbeddedGraphStore } from './stores/embedded.ts';
import { createNeo4jGraphStore, neo4jDriver } from './stores/neo4j.ts';
import { syncGraphToStore } from './sync.ts';

/**
 * The `graph:sync` round trip against a real Neo4j (`npm run test:neo4j` starts one and sets NEO4J_URI): the graph
 * an import builds in the relational database, pushed to Neo4j, reads back the same from Neo4j as from the
 * embedded store, and a second push changes nothing.
 */
const uri = process.env.NEO4J_URI;

describe.skipIf(!uri)('graph:sync round trip on a real Neo4j', () => {
  let db: Database;
  let neo: GraphStore;
  let embedded: GraphStore;
  beforeAll(async () => {
    db = await openTestDatabase();
    const dir = tempDir();
    await runIngest(db, readConfig({}), [writeCorpusJsonl(dir, 'papers.jsonl', corpusPapers), writeRecordsJsonl(dir, 'sol-gel.jsonl', recipeRows)], {
      trigger: 'cli',
    });
    const driver = neo4jDriver({ uri: uri!, user: process.env.NEO4J_USER ?? 'neo4j', password: process.env.NEO4J_PASSWORD ?? '' });
    await driver.executeQuery('MATCH (n:Entity) DETACH DELETE n', {}, { database: process.env.NEO4J_DATABASE, routing: neo4j.routing.WRITE });
    neo = createNeo4jGraphStore(driver, { database: process.env.NEO4J_DATABASE });
    embedded = createEmbeddedGraphStore(db);
  });
  afterAll(async () => {
    await neo?.close();
    await db?.close();
  });

  it('pushes every entity and tuple, idempotently, and reads back what the embedded store reads', async () => {
    const first = await syncGraphToStore(db, neo);
    expect(first.tuples).toBeGreaterThan(0);
    const counts = await neo.counts();
    expect(counts).toEqual(await embedded.counts());
    await syncGraphToStore(db, neo);
    expect(await neo.counts()).toEqual(counts);
    const keys = ['p:power-density', 'p:conductivity'];
    const sortById = (ts: { id: string }[]) => [...ts].sort((a, b) => a.id.localeCompare(b.id));
    const fromNeo = sortById(await neo.tuplesTouching(keys, 500));
    const fromEmbedded = sortById(await embedded.tuplesTouching(keys, 500));
    expect(fromNeo.length).toBeGreaterThan(0);
    expect(fromNeo).toEqual(fromEmbedded);
  });
});
