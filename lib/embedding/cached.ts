import { sha256 } from '../common/hash.ts';
import type { EmbeddingCacheStore, EmbeddingProgress, TextEmbedder } from './embedder.ts';

/**
 * An embedder whose passage vectors are kept by (model id, text hash) in a store — the database for a provider
 * (calls cost time and money) and for the local model (a corpus costs minutes): each text is embedded once, and a
 * run stopped half-way keeps what it did (vectors are stored batch by batch). Question vectors are kept in memory.
 */
export function cachedEmbedder<E extends TextEmbedder & { embedQuery?(texts: string[]): Promise<Float32Array[]> }>(
  inner: E,
  cache: EmbeddingCacheStore | undefined,
  opts: { batchSize?: number; onProgress?: (done: number, total: number) => void } = {},
): E {
  const batch = opts.batchSize ?? 256;
  const queries = new Map<string, Promise<Float32Array>>();
  // The embedding of texts not in the store, while one runs: what the UI and traces say of semantic search meanwhile.
  let running: EmbeddingProgress | null = null;
  return {
    ...inner,
    progress: () => running && { ...running },
    async missing(texts: string[]) {
      if (!cache) return texts.length;
      const hashes = [...new Set(texts.map((t) => sha256(t)))];
      // Keys only: the vectors themselves are read once, by the build's `embed`.
      const known = await cache.has(inner.id, hashes);
      return hashes.filter((h) => !known.has(h)).length;
    },
    async stored(texts: string[]) {
      if (!cache) return texts.map(() => false);
      const hashes = texts.map((t) => sha256(t));
      const known = await cache.has(inner.id, [...new Set(hashes)]);
      return hashes.map((h) => known.has(h));
    },
    async embed(texts: string[]) {
      const hashes = texts.map((t) => sha256(t));
      const known = cache ? await cache.get(inner.id, [...new Set(hashes)]) : new Map<string, Float32Array>();
      const textOf = new Map(hashes.map((h, i) => [h, texts[i]]));
      // Shortest first: a slice then holds texts of similar length, and the model pads each batch to its longest text
      // (9 % faster over the shared corpus than in corpus order).
      const missing = [...new Set(hashes.filter((h) => !known.has(h)))].sort((a, b) => textOf.get(a)!.length - textOf.get(b)!.length);
      const progress = { done: 0, total: missing.length };
      if (missing.length) running = progress;
      try {
        for (let i = 0; i < missing.length; i += batch) {
          const slice = missing.slice(i, i + batch);
          const vectors = await inner.embed(slice.map((h) => textOf.get(h)!));
          const rows = slice.map((hash, j) => ({ hash, vector: vectors[j] }));
          for (const r of rows) known.set(r.hash, r.vector);
          await cache?.put(inner.id, rows);
          progress.done = Math.min(i + batch, missing.length);
          opts.onProgress?.(progress.done, missing.length);
        }
      } finally {
        if (running === progress) running = null;
      }
      return hashes.map((h) => known.get(h)!);
    },
    ...(inner.embedQuery
      ? {
          async embedQuery(texts: string[]) {
            // Kept as promises: a question asked for again while its vector is on its way (the early start of a
            // retrieval, then the search that needs it) waits for the same call instead of embedding it twice.
            const missing = [...new Set(texts.filter((t) => !queries.has(t)))];
            if (missing.length) {
              const call = inner.embedQuery!(missing);
              // A bounded memory: questions repeat within a session, not forever.
              if (queries.size > 10_000) queries.clear();
              for (const [i, t] of missing.entries()) {
                const vector = call.then((vectors) => vectors[i]);
                queries.set(t, vector);
                // A failed call is forgotten, so the next question asks again.
                vector.catch(() => queries.get(t) === vector && queries.delete(t));
              }
            }
            return Promise.all(texts.map((t) => queries.get(t)!));
          },
        }
      : {}),
  };
}
