import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { embedMany } from 'ai';
import { sha256 } from '../common/hash.ts';
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
  const batch = opts.batchSize ?? 256;
  return {
    id: opts.id,
    dimensions,
    async embed(texts) {
      const hashes = texts.map((t) => sha256(t));
      const known = opts.cache ? await opts.cache.get(opts.id, [...new Set(hashes)]) : new Map<string, Float32Array>();
      const missing = [...new Set(hashes.filter((h) => !known.has(h)))];
      const textOf = new Map(hashes.map((h, i) => [h, texts[i]]));
      for (let i = 0; i < missing.length; i += batch) {
        const slice = missing.slice(i, i + batch);
        const { embeddings } = await embedMany({ model: opts.model, values: slice.map((h) => textOf.get(h)!), maxRetries: 2 });
        const rows = slice.map((hash, j) => ({ hash, vector: normalise(Float32Array.from(embeddings[j])) }));
        for (const r of rows) known.set(r.hash, r.vector);
        await opts.cache?.put(opts.id, rows);
        opts.onProgress?.(Math.min(i + batch, missing.length), missing.length);
      }
      return hashes.map((h) => known.get(h)!);
    },
  };
}
