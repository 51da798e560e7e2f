/**
 * What the retrieval index needs from an embedder: an id (stored with vectors so a change of model re-embeds)
 * and batch embedding into normalised Float32 vectors. One file per implementation: `local-hash.ts` (no
 * network, no weights) and `provider.ts` (any AI SDK embedding model, vectors cached by text hash + model id
 * because provider calls cost time and money); `select.ts` picks one from the configuration.
 */
export interface TextEmbedder {
  id: string;
  dimensions: number;
  /** Weight of its dense ranks against BM25's in reciprocal-rank fusion (1 when not measured otherwise). */
  fusionWeight?: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** How many of these texts it has not embedded yet (an embedder with a cache; the others embed on every call). */
  missing?(texts: string[]): Promise<number>;
  /** Which of these texts it has a stored vector for, in their order (an embedder with a cache). */
  stored?(texts: string[]): Promise<boolean[]>;
  /** Questions, when they are embedded differently from passages (bge's retrieval prefix). */
  embedQuery?(texts: string[]): Promise<Float32Array[]>;
  /** How far the embedding of texts it had not embedded before has got (null: none under way). */
  progress?(): EmbeddingProgress | null;
}

/** Texts a model embeds for the first time: how many so far, of how many. */
export interface EmbeddingProgress {
  done: number;
  total: number;
  /** Papers whose every passage is embedded, when the passages are embedded in shards and dense search takes papers in as they land. */
  papers?: { done: number; total: number };
}

/** Whole percent of an embedding pass done (0 before it knows its total). */
export const percentDone = (p: EmbeddingProgress): number => (p.total ? Math.floor((100 * p.done) / p.total) : 0);

/** Question vectors: an embedder that embeds questions differently from passages (bge's retrieval prefix) says so. */
export function embedQueries(embedder: TextEmbedder, texts: string[]): Promise<Float32Array[]> {
  return embedder.embedQuery ? embedder.embedQuery(texts) : embedder.embed(texts);
}

/** Vectors already computed for (model, text hash); implemented by lib/db/embeddings.ts. */
export interface EmbeddingCacheStore {
  get(modelId: string, hashes: string[]): Promise<Map<string, Float32Array>>;
  /** Which of these hashes have a vector, without reading the vectors. */
  has(modelId: string, hashes: string[]): Promise<Set<string>>;
  put(modelId: string, rows: { hash: string; vector: Float32Array }[]): Promise<void>;
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

export function normalise(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}
