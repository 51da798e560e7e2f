import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { embedMany } from 'ai';
import { cachedEmbedder } from './cached.ts';
import { type EmbeddingCacheStore, normalise, type TextEmbedder } from './embedder.ts';

/** Any AI SDK embedding model (a configured provider); vectors cached by text hash + model id. */
export async function providerTextEmbedder(opts: {
  model: EmbeddingModelV3;
  id: string;
  cache?: EmbeddingCacheStore;
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
}): Promise<TextEmbedder> {
  // One probe call tells the dimension count (providers differ and some let you choose it).
  const probe = await embedMany({ model: opts.model, values: ['dimension probe'], maxRetries: 2 });
  const dimensions = probe.embeddings[0].length;
  const raw: TextEmbedder = {
    id: opts.id,
    dimensions,
    async embed(texts) {
      const { embeddings } = await embedMany({ model: opts.model, values: texts, maxRetries: 2 });
      return embeddings.map((e) => normalise(Float32Array.from(e)));
    },
  };
  return cachedEmbedder(raw, opts.cache, { batchSize: opts.batchSize ?? 256, onProgress: opts.onProgress });
}
