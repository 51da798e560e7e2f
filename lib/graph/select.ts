import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { GraphStore } from './store.ts';
import { chatModel } from '../ai/providers.ts';
import { extractionCache } from '../db/extraction-cache.ts';
import { offlineTupleExtractor } from './build.ts';
import { createLlmTupleExtractor, type TupleExtractor } from './llm-tuples.ts';
import { createEmbeddedGraphStore } from './stores/embedded.ts';
import { createNeo4jGraphStore, neo4jDriver } from './stores/neo4j.ts';

/** The configured graph store: Neo4j when NEO4J_URI is set, else the embedded store on the relational database. */
export function configuredGraphStore(db: Database, cfg: AssayConfig): GraphStore {
  if (cfg.neo4j) return createNeo4jGraphStore(neo4jDriver(cfg.neo4j), { database: cfg.neo4j.database ?? undefined });
  return createEmbeddedGraphStore(db);
}

/** The paragraph tuple backend: the model when ASSAY_GRAPH_EXTRACTOR=llm, else the offline sentence patterns. */
export function configuredTupleExtractor(db: Database, cfg: AssayConfig): TupleExtractor {
  const chat = cfg.graphExtractor === 'llm' ? chatModel(cfg) : null;
  return chat ? createLlmTupleExtractor({ chat, cache: extractionCache(db) }) : offlineTupleExtractor;
}
