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

/** How a process holds its passage vectors: 4 bytes a value, or 1 (int8 codes on one scale; see `DenseIndex`). */
export type DensePrecision = 'float32' | 'int8';

/** A space's vectors as plain data (a snapshot keeps it): the float matrix, or the int8 codes and their scale. */
export interface DenseData {
  ids: string[];
  dimensions: number;
  matrix?: Float32Array;
  codes?: Int8Array;
  scale?: number;
}

/**
 * How many more candidates an int8 scan takes than asked for, rescored exactly (a float question against the codes)
 * before the best are kept: quantization only swaps neighbours whose similarities lie within its error.
 */
const INT8_OVERFETCH = (k: number) => Math.max(2 * k, k + 20);

export class DenseIndex implements DenseView {
  readonly where = 'process';
  readonly ids: string[];
  readonly dimensions: number;
  /** float32: the vectors, row i the vector of ids[i]. */
  private readonly matrix: Float32Array | null;
  /**
   * int8: every value times one scale (127 over the largest magnitude in the matrix), rounded. One scale for all rows
   * keeps the codes' inner products proportional to the vectors', so the native scan ranks by them directly.
   */
  private readonly codes: Int8Array | null;
  private readonly scale: number;
  private readonly position = new Map<string, number>();

  constructor(
    ids: string[],
    vectors: Float32Array[] | Float32Array,
    dimensions: number,
    opts: { precision?: DensePrecision; quantized?: { codes: Int8Array; scale: number } } = {},
  ) {
    this.ids = ids;
    this.dimensions = dimensions;
    const precision = opts.precision ?? 'float32';
    for (const [i, id] of ids.entries()) this.position.set(id, i);
    if (opts.quantized) {
      // Codes read back (a snapshot's): a view into a larger buffer is copied, as a float matrix is below.
      const { codes, scale } = opts.quantized;
      if (codes.length !== ids.length * dimensions) throw new Error(`${codes.length} codes do not hold ${ids.length} vectors of ${dimensions}`);
      this.codes = codes.byteOffset === 0 ? codes : codes.slice();
      this.scale = scale;
      this.matrix = null;
      return;
    }
    let matrix: Float32Array;
    if (vectors instanceof Float32Array) {
      // One matrix, row i the vector of ids[i] (a snapshot's). usearch reads a typed array from the start of its
      // buffer whatever its offset (V8's deserializer gives views into the file's buffer): such a view is copied.
      if (vectors.length !== ids.length * dimensions)
        throw new Error(`a matrix of ${vectors.length} values does not hold ${ids.length} vectors of ${dimensions}`);
      matrix = vectors.byteOffset === 0 || precision === 'int8' ? vectors : vectors.slice();
    } else {
      matrix = new Float32Array(ids.length * dimensions);
      vectors.forEach((v, i) => {
        if (v.length !== dimensions) throw new Error(`vector ${ids[i]} has ${v.length} dimensions, the index ${dimensions}`);
        matrix.set(v, i * dimensions);
      });
    }
    if (precision === 'float32') {
      this.matrix = matrix;
      this.codes = null;
      this.scale = 1;
      return;
    }
    let largest = 0;
    for (const x of matrix) largest = Math.max(largest, Math.abs(x));
    this.scale = largest > 0 ? 127 / largest : 1;
    this.codes = new Int8Array(matrix.length);
    for (let i = 0; i < matrix.length; i++) this.codes[i] = Math.round(matrix[i] * this.scale);
    this.matrix = null;
  }

  /** A space read back from its data (a snapshot's): float32 as it is, int8 without quantizing again. */
  static fromData(d: DenseData): DenseIndex {
    if (d.matrix) return new DenseIndex(d.ids, d.matrix, d.dimensions);
    if (!d.codes || !d.scale) throw new Error('dense data holds neither a matrix nor codes');
    return new DenseIndex(d.ids, new Float32Array(0), d.dimensions, { quantized: { codes: d.codes, scale: d.scale } });
  }

  /** The vectors as floats (the int8 codes divided by their scale): what pgvector is given. */
  floatMatrix(): Float32Array {
    if (this.matrix) return this.matrix;
    const out = new Float32Array(this.codes!.length);
    for (let i = 0; i < out.length; i++) out[i] = this.codes![i] / this.scale;
    return out;
  }

  /** The ids and the one matrix (or the codes and their scale) of their vectors, for a snapshot (`DenseIndex.fromData` reads it back). */
  toData(): DenseData {
    return this.codes
      ? { ids: this.ids, codes: this.codes, scale: this.scale, dimensions: this.dimensions }
      : { ids: this.ids, matrix: this.matrix!, dimensions: this.dimensions };
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
    // int8: the float question against the codes, over their scale (the codes' error only, not the question's too).
    const m: Float32Array | Int8Array = this.matrix ?? this.codes!;
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
    return (s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7) / this.scale;
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
    if (this.codes) return this.nativeInt8Scan(native, queries, count);
    const flat = new Float32Array(queries.length * this.dimensions);
    for (const [i, q] of queries.entries()) flat.set(q, i * this.dimensions);
    const found = native.exactSearch(this.matrix!, flat, this.dimensions, count, native.MetricKind.IP, 1);
    // One query answers Matches, several BatchMatches (keys and distances of all queries, `count` per query).
    const { keys, distances } = found;
    return queries.map((_, qi) => {
      const hits: ScoredId[] = [];
      const n = 'counts' in found ? Number(found.counts[qi]) : keys.length;
      for (let j = qi * count; j < qi * count + n; j++) hits.push({ id: this.ids[Number(keys[j])], score: 1 - distances[j] });
      return hits;
    });
  }

  /**
   * int8: the questions quantized on their own scale (an inner product's ranking does not depend on it), the codes
   * scanned natively for more candidates than asked, each rescored with the float question, the best `count` kept.
   */
  private nativeInt8Scan(native: Usearch, queries: Float32Array[], count: number): ScoredId[][] {
    const d = this.dimensions;
    const depth = Math.min(this.ids.length, INT8_OVERFETCH(count));
    const flat = new Int8Array(queries.length * d);
    for (const [i, q] of queries.entries()) {
      let largest = 0;
      for (const x of q) largest = Math.max(largest, Math.abs(x));
      const s = largest > 0 ? 127 / largest : 1;
      for (let j = 0; j < d; j++) flat[i * d + j] = Math.round(q[j] * s);
    }
    const found = native.exactSearch(this.codes!, flat, d, depth, native.MetricKind.IP, 1);
    const { keys } = found;
    return queries.map((q, qi) => {
      const n = 'counts' in found ? Number(found.counts[qi]) : keys.length;
      const hits: ScoredId[] = [];
      for (let j = qi * depth; j < qi * depth + n; j++) {
        const row = Number(keys[j]);
        hits.push({ id: this.ids[row], score: this.dot(q, row) });
      }
      return hits.sort((a, b) => b.score - a.score).slice(0, count);
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
