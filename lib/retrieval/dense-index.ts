import { requireFromRoot } from '../common/root-require.ts';
import type { ScoredId } from './lexical-index.ts';

/**
 * Exact nearest-neighbour search over L2-normalised Float32 vectors held in one contiguous array (cosine =
 * dot product). At corpus scale (10⁴–10⁵ vectors of a few hundred dimensions) a full scan takes milliseconds,
 * so no approximate index is needed; pgvector can replace this when the database has it.
 *
 * Unfiltered scans run in usearch's native exact search (SIMD dot products over the same array, no copy, on the
 * calling thread): 8,851 × 384 in 1.1 ms against 8.6 ms for the JavaScript loop below, which is the question's
 * critical path in the graph pipeline's dense entry and in the abstention's dense signals. Filtered scans (a
 * question confined to some papers) stay in JavaScript: the filter is a predicate over ids the native scan cannot
 * call, and they read few vectors. Where usearch's native build cannot be loaded, every scan runs in JavaScript:
 * the same neighbours, slower.
 */

type Usearch = typeof import('usearch');
let usearch: Usearch | null | undefined;

/**
 * usearch's CommonJS build, required from the project root (as the model's thread is started from it): its ES module
 * build finds its native binary through the call stack, which fails under tsx and bundlers.
 */
function nativeSearch(): Usearch | null {
  if (usearch === undefined) {
    try {
      usearch = requireFromRoot<Usearch>('usearch');
    } catch (error) {
      usearch = null;
      console.warn(`[assay] usearch's native exact search is unavailable (${(error as Error).message.split('\n')[0]}): dense scans run in JavaScript`);
    }
  }
  return usearch;
}
/** Unfiltered searches remembered (see `DenseIndex.query`), and how deep each is kept. */
const REMEMBERED_QUERIES = 8;
const REMEMBERED_DEPTH = 100;

/**
 * Nearest-neighbour search over one space's passage vectors, wherever they are held: `DenseIndex` in the process
 * (the default) or pgvector in the database (lib/retrieval/dense-sources/database.ts), which answers
 * asynchronously. Same contract: ids best first by cosine, at most `k`, only ids the filter admits.
 */
export interface DenseView {
  /** Where the vectors are held and searched. */
  readonly where: 'process' | 'pgvector';
  readonly size: number;
  readonly dimensions: number;
  query(q: Float32Array, k: number, filter?: (id: string) => boolean): ScoredId[] | Promise<ScoredId[]>;
  queryMany(queries: Float32Array[], k: number, filter?: (id: string) => boolean): ScoredId[][] | Promise<ScoredId[][]>;
  /** The cosine between `q` and each of `ids` (0 for an id without a vector), in their order. */
  similarities(q: Float32Array, ids: string[]): number[] | Promise<number[]>;
}

export class DenseIndex implements DenseView {
  readonly where = 'process';
  readonly ids: string[];
  readonly dimensions: number;
  private readonly matrix: Float32Array;
  private readonly position = new Map<string, number>();

  constructor(ids: string[], vectors: Float32Array[] | Float32Array, dimensions: number) {
    this.ids = ids;
    this.dimensions = dimensions;
    if (vectors instanceof Float32Array) {
      // One matrix, row i the vector of ids[i] (a snapshot's). usearch reads a typed array from the start of its
      // buffer whatever its offset (V8's deserializer gives views into the file's buffer): such a view is copied.
      if (vectors.length !== ids.length * dimensions)
        throw new Error(`a matrix of ${vectors.length} values does not hold ${ids.length} vectors of ${dimensions}`);
      this.matrix = vectors.byteOffset === 0 ? vectors : vectors.slice();
      for (const [i, id] of ids.entries()) this.position.set(id, i);
      return;
    }
    this.matrix = new Float32Array(ids.length * dimensions);
    vectors.forEach((v, i) => {
      if (v.length !== dimensions) throw new Error(`vector ${ids[i]} has ${v.length} dimensions, the index ${dimensions}`);
      this.matrix.set(v, i * dimensions);
      this.position.set(ids[i], i);
    });
  }

  /** The ids and the one matrix of their vectors, for a snapshot (`new DenseIndex(ids, matrix, dimensions)` reads it back). */
  toData(): { ids: string[]; matrix: Float32Array; dimensions: number } {
    return { ids: this.ids, matrix: this.matrix, dimensions: this.dimensions };
  }

  get size(): number {
    return this.ids.length;
  }

  similarity(query: Float32Array, id: string): number {
    const i = this.position.get(id);
    return i === undefined ? 0 : this.dot(query, i);
  }

  similarities(query: Float32Array, ids: string[]): number[] {
    return ids.map((id) => this.similarity(query, id));
  }

  private dot(q: Float32Array, row: number): number {
    const m = this.matrix;
    const d = this.dimensions;
    // Eight independent accumulators let the engine pipeline the multiply-adds: a scan of 8,851 × 384 takes 5.3 ms
    // against 6.4 ms with four (the abstention's dense signals scan the corpus once per question).
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    let s5 = 0;
    let s6 = 0;
    let s7 = 0;
    const o = row * d;
    let j = 0;
    for (; j + 7 < d; j += 8) {
      s0 += q[j] * m[o + j];
      s1 += q[j + 1] * m[o + j + 1];
      s2 += q[j + 2] * m[o + j + 2];
      s3 += q[j + 3] * m[o + j + 3];
      s4 += q[j + 4] * m[o + j + 4];
      s5 += q[j + 5] * m[o + j + 5];
      s6 += q[j + 6] * m[o + j + 6];
      s7 += q[j + 7] * m[o + j + 7];
    }
    for (; j < d; j++) s0 += q[j] * m[o + j];
    return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
  }

  /**
   * The last few unfiltered searches, by the identity of their query vector (the embedder's cache hands the same
   * array to every step that embeds the question): the graph's dense entry and the abstention's dense signals ask
   * about the same question, and the second reads the first's scan instead of scanning again.
   */
  private readonly recent: { q: Float32Array; hits: ScoredId[] }[] = [];

  /** The `k` most similar vectors, best first; `filter` restricts the candidates. */
  query(q: Float32Array, k: number, filter?: (id: string) => boolean): ScoredId[] {
    if (filter) return this.scan(q, k, filter);
    const known = this.recent.find((r) => r.q === q && (r.hits.length >= k || r.hits.length === this.ids.length));
    if (known) return known.hits.slice(0, k);
    const hits = this.scan(q, Math.max(k, REMEMBERED_DEPTH));
    this.recent.unshift({ q, hits });
    if (this.recent.length > REMEMBERED_QUERIES) this.recent.pop();
    return hits.slice(0, k);
  }

  /** Every stored vector's `k` best, in one native pass per query (usearch: inner-product distance = 1 − dot). */
  private nativeScan(queries: Float32Array[], k: number): ScoredId[][] {
    const count = Math.min(k, this.ids.length);
    if (count === 0) return queries.map(() => []);
    const native = nativeSearch();
    if (!native) return queries.map((q) => this.scan(q, k, () => true));
    const flat = new Float32Array(queries.length * this.dimensions);
    for (const [i, q] of queries.entries()) flat.set(q, i * this.dimensions);
    const found = native.exactSearch(this.matrix, flat, this.dimensions, count, native.MetricKind.IP, 1);
    // One query answers Matches, several BatchMatches (keys and distances of all queries, `count` per query).
    const { keys, distances } = found;
    return queries.map((_, qi) => {
      const hits: ScoredId[] = [];
      const n = 'counts' in found ? Number(found.counts[qi]) : keys.length;
      for (let j = qi * count; j < qi * count + n; j++) hits.push({ id: this.ids[Number(keys[j])], score: 1 - distances[j] });
      return hits;
    });
  }

  private scan(q: Float32Array, k: number, filter?: (id: string) => boolean): ScoredId[] {
    if (!filter) return this.nativeScan([q], k)[0];
    const best: ScoredId[] = [];
    for (let i = 0; i < this.ids.length; i++) {
      if (filter && !filter(this.ids[i])) continue;
      const s = this.dot(q, i);
      if (best.length < k) {
        best.push({ id: this.ids[i], score: s });
        if (best.length === k) best.sort((a, b) => b.score - a.score);
      } else if (s > best[k - 1].score) {
        let j = k - 1;
        while (j > 0 && best[j - 1].score < s) {
          best[j] = best[j - 1];
          j--;
        }
        best[j] = { id: this.ids[i], score: s };
      }
    }
    return best.length < k ? best.sort((a, b) => b.score - a.score) : best;
  }

  /**
   * Several queries in one pass over the vectors (sub-queries of a decomposed question): the scan is bound by
   * memory traffic, so reading each stored vector once for all queries costs little more than one query.
   */
  queryMany(queries: Float32Array[], k: number, filter?: (id: string) => boolean): ScoredId[][] {
    if (queries.length === 1) return [this.query(queries[0], k, filter)];
    if (!filter) return this.nativeScan(queries, k);
    const best: ScoredId[][] = queries.map(() => []);
    const floor = queries.map(() => Number.NEGATIVE_INFINITY);
    for (let i = 0; i < this.ids.length; i++) {
      if (filter && !filter(this.ids[i])) continue;
      for (let qi = 0; qi < queries.length; qi++) {
        const s = this.dot(queries[qi], i);
        const list = best[qi];
        if (list.length < k) {
          list.push({ id: this.ids[i], score: s });
          if (list.length === k) {
            list.sort((a, b) => b.score - a.score);
            floor[qi] = list[k - 1].score;
          }
        } else if (s > floor[qi]) {
          let j = k - 1;
          while (j > 0 && list[j - 1].score < s) {
            list[j] = list[j - 1];
            j--;
          }
          list[j] = { id: this.ids[i], score: s };
          floor[qi] = list[k - 1].score;
        }
      }
    }
    return best.map((list) => (list.length < k ? list.sort((a, b) => b.score - a.score) : list));
  }
}
