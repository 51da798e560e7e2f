import type { AssayConfig } from '../config.ts';
import { type Reformulator, rulesReformulator } from '../retrieval/reformulate.ts';
import type { RetrieveOptions } from '../pipelines/types.ts';

/**
 * A retrieval worker's configured options (configured.ts), with the model and Neo4j clients' packages
 * (@ai-sdk/openai, neo4j-driver and what they load: about 0.2 s of every worker's start, and a restart's first
 * question waits for its worker) loaded only when the configuration names a model, a re-ranker or Neo4j. Without
 * them these are the offline options configuredOptions gives (worker-options.test.ts holds the two equal).
 */
export async function workerOptions(cfg: AssayConfig): Promise<RetrieveOptions & { reformulator: Reformulator }> {
  if (cfg.llm || cfg.rerank || cfg.neo4j) return (await import('../pipelines/configured.ts')).configuredOptions(cfg);
  return { reformulator: rulesReformulator, tupleReranker: undefined, graphSource: undefined, modelConfigured: false };
}
