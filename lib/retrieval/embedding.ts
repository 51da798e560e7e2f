import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { embedMany } from 'ai';
import { sha256 } from '../ingest/text.ts';
import { normalise, type LocalHashEmbedder } from './embedders/local-hash.ts';

/**
 * What the retrieval index needs from an embedder: an id (stored with vectors so a change of model re-embeds)
 * and batch embedding into normalised Float32 vectors. Two implementations: the local hashing embedder (no
 * network, no weights) and any AI SDK embedding model (a configured provider), whose vectors are cached by
 * text hash + model id because provider calls cost time and money.
 */
export interface TextEmbedder {
  id: string;
  dimensions: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export function localTextEmbedder(model: LocalHashEmbedder): TextEmbedder {
  return {
    id: model.modelId,
    dimensions: model.dimensions,
    embed: async (texts) => texts.map((t) => model.embedOne(t)),
  };
}

/** Vectors already computed for (model, text hash); implemented by lib/db/embeddings.ts. */
export interface EmbeddingCacheStore {
  get(modelId: string, hashes: string[]): Promise<Map<string, Float32Array>>;
  put(modelId: string, rows: { hash: string; vector: Float32Array }[]): Promise<void>;
}

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

/** Dot product of two vectors of equal length (cosine for the normalised vectors embedders return). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** A vector's non-zero entries: the local embedder's vectors of short texts are mostly zeros. */
export interface SparseVector {
  idx: Int32Array;
  val: Float32Array;
}

export function sparse(v: Float32Array): SparseVector {
  let n = 0;
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) n++;
  const idx = new Int32Array(n);
  const val = new Float32Array(n);
  for (let i = 0, j = 0; i < v.length; i++) {
    if (v[i] !== 0) {
      idx[j] = i;
      val[j++] = v[i];
    }
  }
  return { idx, val };
}

/** dot(a, b) with `a` sparse: scanning thousands of entity labels against a few probes costs their non-zeros only. */
export function sparseDot(a: SparseVector, b: Float32Array): number {
  let s = 0;
  for (let j = 0; j < a.idx.length; j++) s += a.val[j] * b[a.idx[j]];
  return s;
}
