import { chatModel, rerankingModel } from '../ai/providers.ts';
import type { AssayConfig } from '../config.ts';
import { neo4jDriver } from '../graph/stores/neo4j.ts';
import { providerTupleReranker } from '../retrieval/graph-search.ts';
import { neo4jGraphSources } from '../retrieval/graph-sources/neo4j.ts';
import { llmReformulator, type Reformulator, rulesReformulator } from '../retrieval/reformulate.ts';
import type { RetrieveOptions } from './types.ts';

/**
 * The retrieval options the configuration decides (reformulator, re-ranker, graph source, whether a model exists),
 * made by the retrieval service and by each retrieval worker for itself; no database here, so a worker loads none.
 */
export function configuredReformulator(cfg: AssayConfig): Reformulator {
  const chat = cfg.reformulation === 'llm' ? chatModel(cfg) : null;
  return chat ? llmReformulator(chat) : rulesReformulator;
}

/** What every retrieval gets from the configuration (the service's, and each retrieval worker's own). */
export function configuredOptions(cfg: AssayConfig): RetrieveOptions & { reformulator: Reformulator } {
  const reranking = rerankingModel(cfg);
  return {
    reformulator: configuredReformulator(cfg),
    tupleReranker: reranking ? providerTupleReranker(reranking.model, reranking.id) : undefined,
    // With NEO4J_URI the graph pipelines read their candidates from Neo4j (after `npm run graph:sync`).
    graphSource: cfg.neo4j
      ? neo4jGraphSources(neo4jDriver(cfg.neo4j), { database: cfg.neo4j.database ?? undefined, cacheBytes: cfg.neo4j.cacheMb * 1024 * 1024 })
      : undefined,
    modelConfigured: !!cfg.llm,
  };
}
