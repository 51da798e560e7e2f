import { embeddingModel } from '../ai/providers.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { embeddingCacheStore } from '../db/embeddings.ts';
import type { TextEmbedder } from './embedder.ts';
import { fitLocalHashEmbedderSliced, localTextEmbedder } from './local-hash.ts';
import { providerTextEmbedder } from './provider.ts';

/**
 * The configured embedder: the provider's embedding model (vectors cached in the database) when
 * ASSAY_EMBEDDING_MODEL is set, else the local hashing embedder fitted on `texts` (read only in that case).
 */
export async function createEmbedder(db: Database, cfg: AssayConfig, texts: () => Iterable<string>): Promise<TextEmbedder> {
  const provider = embeddingModel(cfg);
  if (provider) return providerTextEmbedder({ model: provider.model, id: provider.id, cache: embeddingCacheStore(db) });
  return localTextEmbedder(await fitLocalHashEmbedderSliced(texts()));
}
