import { kthLargest } from '../common/kth-largest.ts';

/**
 * BM25 scoring over postings, wherever they are held: in typed arrays in the process (lexical-index.ts) or in a file
 * read a term at a time (record-file.ts). Both rank with this one scorer, so an index read from a file gives the
 * scores and the order of equal scores that the same documents give in memory.
 *
 * The scoring is MiniSearch's (7.2, which the lexical index replaced; BM25+ with k 1.2, b 0.7, d 0.5, per-field
 * boosts, a document's score times the number of query words it matched), computed in the same order.
 */

/** What the scorer reads of an index. Terms are numbered; documents are numbered 0 .. size - 1 in the order added. */
export interface PostingsSource {
  readonly size: number;
  readonly fields: readonly string[];
  readonly fieldBoosts: Record<string, number>;
  /** The number of a word the index holds, or undefined. */
  termNumber(word: string): number | undefined;
  /** Field `f`'s postings of term `t`: its documents in the order they were added, with their frequencies. */
  postings(f: number, t: number): { docs: Uint32Array; freqs: Uint16Array | Uint32Array };
  /** Distinct words of field `f` per document (MiniSearch's field length), and their average. */
  lengths(f: number): Uint16Array | Uint32Array;
  averageLength(f: number): number;
  idOf(doc: number): string;
}

export interface ScoredId {
  id: string;
  score: number;
}

export interface QueryOptions {
  limit?: number;
  filter?: (id: string) => boolean;
  /** Only these fields (default: all). */
  fields?: string[];
}

const K = 1.2;
const B = 0.7;
const D = 0.5;

/** MiniSearch's inverse document frequency of a word `matching` of `size` documents hold (in one field). */
export const inverseDocumentFrequency = (size: number, matching: number) => Math.log(1 + (size - matching + 0.5) / (matching + 0.5));

/** A word's BM25+ weight in one field of one document: `tf` occurrences in a field of `length` words (average `avg`). */
export const bm25Plus = (idf: number, tf: number, length: number, avg: number) => idf * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * length) / avg)));

/**
 * A word's weight in each document of a space (some of the source's fields), as the scorer sums it for one word
 * (`token`): Σ over the fields, in the space's order, of boost × BM25+; with each document the first of the space's
 * fields that holds the word (the scorer meets a word's documents field by field: the order of equal scores).
 * What the database search stores per term (lexical-sources/database.ts), so it ranks with these very numbers.
 */
export function spaceWeights(source: PostingsSource, fields: readonly string[], term: number): { docs: number[]; weights: number[]; firsts: number[] } {
  const at = new Map<number, number>();
  const docs: number[] = [];
  const weights: number[] = [];
  const firsts: number[] = [];
  fields.forEach((field, position) => {
    const f = source.fields.indexOf(field);
    if (f < 0) return;
    const { docs: posted, freqs } = source.postings(f, term);
    if (posted.length === 0) return;
    const boost = source.fieldBoosts[field] || 1;
    const lengths = source.lengths(f);
    const avg = source.averageLength(f);
    const idf = inverseDocumentFrequency(source.size, posted.length);
    for (let i = 0; i < posted.length; i++) {
      const d = posted[i];
      const weighted = boost * bm25Plus(idf, freqs[i], lengths[d], avg);
      const k = at.get(d);
      if (k === undefined) {
        at.set(d, docs.length);
        docs.push(d);
        weights.push(weighted);
        firsts.push(position);
      } else weights[k] += weighted;
    }
  });
  return { docs, weights, firsts };
}

/** A word's documents (in the order the scorer meets them) with its weight in each, as `spaceWeights` makes them. */
export interface WeightedList {
  docs: ArrayLike<number>;
  weights: ArrayLike<number>;
}

/**
 * Fills `token` with one word's weight per document holding it, stamping each with `tokenStamp` in `seen` (every
 * third entry) and listing it in `tokenDocs` the first time; false when the index does not know the word.
 */
type FillToken = (word: string, tokenStamp: number, token: Float64Array, seen: Uint32Array, tokenDocs: number[]) => boolean;

/**
 * The accumulation of a query's scores over `size` documents, with the scratch space of one query (queries run
 * one at a time per thread): per kept term its words' weights summed per document, the term's into the total, each
 * word counted once among a document's matched words, and the total times that count. Shared by the in-process
 * scorer (words weighted from postings per field) and the database search (words weighted when written), so both
 * make the same additions in the same order: the same scores, and equal scores in the same order.
 */
export class ScoreAccumulator {
  private scratch: { token: Float64Array; term: Float64Array; total: Float64Array; seen: Uint32Array; quality: Uint16Array } | null = null;
  private stamp = 0;

  constructor(private readonly size: () => number) {}

  private scratchSpace() {
    const n = this.size();
    if (!this.scratch || this.scratch.total.length < n) {
      this.scratch = {
        token: new Float64Array(n),
        term: new Float64Array(n),
        total: new Float64Array(n),
        // Per document the stamp of the token, term and query that last touched it (three stamps a query).
        seen: new Uint32Array(n * 3),
        quality: new Uint16Array(n),
      };
      this.stamp = 0;
    }
    if (this.stamp > 0xfffffff0) {
      this.scratch.seen.fill(0);
      this.stamp = 0;
    }
    return this.scratch;
  }

  /** Top `limit` documents (default 100) for `kept` (the query terms after pruning: see keptTerms), best first. */
  run(kept: string[], fill: FillToken, idOf: (doc: number) => string, opts: Pick<QueryOptions, 'limit' | 'filter'> = {}): ScoredId[] {
    if (kept.length === 0) return [];
    const { token, term, total, seen, quality } = this.scratchSpace();
    const queryStamp = ++this.stamp;
    const matched: number[] = [];
    const countedWords = new Set<string>();
    for (const keptTerm of kept) {
      const termStamp = ++this.stamp;
      const termDocs: number[] = [];
      for (const word of keptTerm.split(' ')) {
        if (!word) continue;
        const tokenStamp = ++this.stamp;
        const tokenDocs: number[] = [];
        if (!fill(word, tokenStamp, token, seen, tokenDocs)) continue;
        // A word is one of a document's matched words once, however many query terms hold it.
        const firstTime = !countedWords.has(word);
        countedWords.add(word);
        for (const d of tokenDocs) {
          if (seen[d * 3 + 1] !== termStamp) {
            seen[d * 3 + 1] = termStamp;
            term[d] = token[d];
            termDocs.push(d);
          } else term[d] = term[d] + token[d];
          if (seen[d * 3 + 2] !== queryStamp) {
            seen[d * 3 + 2] = queryStamp;
            total[d] = 0;
            quality[d] = 0;
            matched.push(d);
          }
          if (firstTime) quality[d]++;
        }
      }
      for (const d of termDocs) total[d] = total[d] + term[d];
    }
    const filter = opts.filter;
    // A filter (a quoted title's paper) reads every match's id, as it must; without one only the hits kept get theirs.
    const candidates = filter ? matched.filter((d) => filter(idOf(d))) : matched;
    return topMatched(candidates, (d) => total[d] * (quality[d] || 1), opts.limit ?? 100, idOf);
  }

  /** The same query over words whose weights were computed beforehand (`listOf`: undefined for a word no document holds). */
  runLists(
    kept: string[],
    listOf: (word: string) => WeightedList | undefined,
    idOf: (doc: number) => string,
    opts: Pick<QueryOptions, 'limit' | 'filter'> = {},
  ) {
    return this.run(
      kept,
      (word, tokenStamp, token, seen, tokenDocs) => {
        const list = listOf(word);
        if (!list) return false;
        const { docs, weights } = list;
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i];
          seen[d * 3] = tokenStamp;
          token[d] = weights[i];
          tokenDocs.push(d);
        }
        return true;
      },
      idOf,
      opts,
    );
  }
}

/** One source's scorer. */
export class Bm25Scorer {
  private readonly accumulator = new ScoreAccumulator(() => this.source.size);

  constructor(private readonly source: PostingsSource) {}

  /** Top `limit` documents (default 100) for `kept` (the query terms after pruning: see keptTerms), best first. */
  query(kept: string[], opts: QueryOptions = {}): ScoredId[] {
    const source = this.source;
    const fieldNumbers = (opts.fields ?? source.fields).map((f) => source.fields.indexOf(f)).filter((f) => f >= 0);
    return this.accumulator.run(
      kept,
      (word, tokenStamp, token, seen, tokenDocs) => {
        const id = source.termNumber(word);
        if (id === undefined) return false;
        for (const f of fieldNumbers) this.scoreField(f, id, tokenStamp, token, seen, tokenDocs);
        return true;
      },
      (d) => source.idOf(d),
      opts,
    );
  }

  /** One word's BM25+ contributions in one field, summed into `token` for the documents that have it. */
  private scoreField(f: number, id: number, tokenStamp: number, token: Float64Array, seen: Uint32Array, tokenDocs: number[]) {
    const source = this.source;
    const { docs, freqs } = source.postings(f, id);
    const matching = docs.length;
    if (matching === 0) return;
    const boost = source.fieldBoosts[source.fields[f]] || 1;
    const lengths = source.lengths(f);
    const avg = source.averageLength(f);
    const invDocFreq = inverseDocumentFrequency(source.size, matching);
    for (let i = 0; i < matching; i++) {
      const d = docs[i];
      const weighted = boost * bm25Plus(invDocFreq, freqs[i], lengths[d], avg);
      if (seen[d * 3] !== tokenStamp) {
        seen[d * 3] = tokenStamp;
        token[d] = weighted;
        tokenDocs.push(d);
      } else token[d] += weighted;
    }
  }
}

/**
 * The `limit` best of `matched` by `score`, best first, equal scores in the order they were matched: what a stable
 * sort of them all and a cut give, without making an object and an id for every match and sorting them by a
 * comparator (a question's words match tens of thousands of paragraphs at ten times the shared corpus). The score of
 * the last one in (`floor`) comes from selection over a typed array (kthLargest); what scores above it is in, and of
 * those at it, the first matched.
 */
export function topMatched(matched: number[], score: (d: number) => number, limit: number, idOf: (d: number) => string): ScoredId[] {
  if (limit <= 0 || matched.length === 0) return [];
  const scores = new Float64Array(matched.length);
  for (let i = 0; i < matched.length; i++) scores[i] = score(matched[i]);
  let floor = -Infinity;
  if (matched.length > limit) floor = kthLargest(Float64Array.from(scores), limit);
  const above: ScoredId[] = [];
  const at: ScoredId[] = [];
  for (let i = 0; i < matched.length; i++) {
    const s = scores[i];
    if (s > floor) above.push({ id: idOf(matched[i]), score: s });
    else if (s === floor && at.length < limit) at.push({ id: idOf(matched[i]), score: s });
  }
  above.sort((a, b) => b.score - a.score);
  return above.concat(at).slice(0, limit);
}
