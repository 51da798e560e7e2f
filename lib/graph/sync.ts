import type { Database } from '../db/database.ts';
import { allEdges, entitiesForSync, tuplesByIds } from '../db/graph.ts';
import type { GraphStore } from './store.ts';

/** Tuples sent per write: the store batches them further (UNWIND of at most 1,000 rows). */
const BATCH = 5000;

/**
 * Pushes the graph from the relational database (the source of truth: entities with their surface forms, tuples
 * with provenance) to a graph store such as Neo4j. Idempotent: entities and tuples are upserted by key and id.
 */
export async function syncGraphToStore(db: Database, store: GraphStore): Promise<{ entities: number; tuples: number; seconds: number }> {
  const t0 = performance.now();
  await store.ensureSchema();
  const edges = await allEdges(db);
  const entities = await entitiesForSync(db);
  await store.upsert({ entities: entities.map((e) => ({ ...e, surfaces: e.surfaces as Record<string, number> })), tuples: [] });
  for (let i = 0; i < edges.length; i += BATCH)
    await store.upsert({
      entities: [],
      tuples: await tuplesByIds(
        db,
        edges.slice(i, i + BATCH).map((e) => e.id),
      ),
    });
  return { entities: entities.length, tuples: edges.length, seconds: (performance.now() - t0) / 1000 };
}
