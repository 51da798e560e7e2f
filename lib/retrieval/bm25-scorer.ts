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

/** One source's scorer, with the scratch space of one query (queries run one at a time per thread). */
export class Bm25Scorer {
  private scratch: { token: Float64Array; term: Float64Array; total: Float64Array; seen: Uint32Array; quality: Uint16Array } | null = null;
  private stamp = 0;

  constructor(private readonly source: PostingsSource) {}

  private scratchSpace() {
    const n = this.source.size;
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
  query(kept: string[], opts: QueryOptions = {}): ScoredId[] {
    if (kept.length === 0) return [];
    const source = this.source;
    const fieldNumbers = (opts.fields ?? source.fields).map((f) => source.fields.indexOf(f)).filter((f) => f >= 0);
    const { token, term, total, seen, quality } = this.scratchSpace();
    const queryStamp = ++this.stamp;
    const matched: number[] = [];
    const countedWords = new Set<string>();
    for (const keptTerm of kept) {
      const termStamp = ++this.stamp;
      const termDocs: number[] = [];
      for (const word of keptTerm.split(' ')) {
        const id = word ? source.termNumber(word) : undefined;
        if (id === undefined) continue;
        const tokenStamp = ++this.stamp;
        const tokenDocs: number[] = [];
        for (const f of fieldNumbers) this.scoreField(f, id, tokenStamp, token, seen, tokenDocs);
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
    const candidates = filter ? matched.filter((d) => filter(source.idOf(d))) : matched;
    return topMatched(
      candidates,
      (d) => total[d] * (quality[d] || 1),
      opts.limit ?? 100,
      (d) => source.idOf(d),
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
    const invDocFreq = Math.log(1 + (source.size - matching + 0.5) / (matching + 0.5));
    for (let i = 0; i < matching; i++) {
      const d = docs[i];
      const tf = freqs[i];
      const raw = invDocFreq * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * lengths[d]) / avg)));
      const weighted = boost * raw;
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
