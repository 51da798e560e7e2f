import { timeSlicer } from '../common/yield.ts';
import { Bm25Scorer, type PostingsSource, type QueryOptions, type ScoredId } from './bm25-scorer.ts';

/**
 * BM25 over pre-analyzed terms, held as typed arrays: per field one compressed posting list per term (document
 * numbers and term frequencies, `Uint32Array`/`Uint16Array`), the field lengths and the document frequencies, with
 * one string per term and per document id and no object per posting. Documents arrive as term lists from
 * `analyze.ts`, so the index and the queries always share one analyzer.
 *
 * The scoring (bm25-scorer.ts, shared with the records index read from a file) is MiniSearch's (7.2, which this
 * index replaced), computed in the same order so that the scores and the order of equal scores are those it gave:
 * the switch was checked to return identical ranked lists. MiniSearch
 * kept a radix tree of Maps with an entry per posting — about 180 MB for the shared corpus's paragraphs and
 * records, seconds to rebuild from a snapshot, and a Map walk per posting at query time — where these arrays are
 * a few tens of MB that a snapshot stores and reads back as they are.
 */
export interface LexicalDoc {
  id: string;
  fields: Record<string, string[]>;
}

/** One field's postings: for term t, documents `docs[offsets[t] .. offsets[t+1])` with their frequencies. */
interface FieldPostings {
  offsets: Uint32Array;
  docs: Uint32Array;
  freqs: Uint16Array | Uint32Array;
  /** Distinct words of the field per document (MiniSearch's field length). */
  lengths: Uint16Array | Uint32Array;
  averageLength: number;
}

/** A lexical index as plain data (see `LexicalIndex.toData`): typed arrays a snapshot keeps as they are. */
export interface LexicalIndexData {
  fieldBoosts: Record<string, number>;
  ids: string[];
  terms: string[];
  df: Uint32Array;
  postings: FieldPostings[];
}

export type { ScoredId };

/** Growable columns of (term, document, frequency) for one field, turned into `FieldPostings` once all are added. */
class PostingsBuilder {
  terms = new Uint32Array(1024);
  docs = new Uint32Array(1024);
  freqs = new Uint32Array(1024);
  size = 0;
  lengths: number[] = [];
  averageLength = 0;

  push(term: number, doc: number, freq: number) {
    if (this.size === this.terms.length) {
      const grow = <T extends Uint32Array>(a: T) => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.terms = grow(this.terms);
      this.docs = grow(this.docs);
      this.freqs = grow(this.freqs);
    }
    this.terms[this.size] = term;
    this.docs[this.size] = doc;
    this.freqs[this.size] = freq;
    this.size++;
  }

  /** Postings grouped by term by a counting sort; within a term documents stay in the order they were added. */
  finish(termCount: number): FieldPostings {
    const offsets = new Uint32Array(termCount + 1);
    for (let i = 0; i < this.size; i++) offsets[this.terms[i] + 1]++;
    for (let t = 0; t < termCount; t++) offsets[t + 1] += offsets[t];
    const next = offsets.slice(0, termCount);
    const docs = new Uint32Array(this.size);
    const freqs = countArray(this.freqs.subarray(0, this.size), this.size);
    for (let i = 0; i < this.size; i++) {
      const at = next[this.terms[i]]++;
      docs[at] = this.docs[i];
      freqs[at] = this.freqs[i];
    }
    const lengths = countArray(this.lengths, this.lengths.length);
    lengths.set(this.lengths);
    return { offsets, docs, freqs, lengths, averageLength: this.averageLength };
  }
}

/**
 * A document's terms counted as a lexical index counts them: per field its words with their frequencies and its
 * length (distinct words), and its distinct terms over all fields (for the document frequencies). Words are what
 * the terms joined by spaces split into (a term never holds one in practice; if it did, its parts would be indexed,
 * as MiniSearch's tokeniser did). Shared with the records file (record-file.ts), so both count alike.
 */
export function countDocumentTerms(
  fields: readonly string[],
  doc: Record<string, string[]>,
): { perField: { counts: Map<string, number>; length: number }[]; distinct: Set<string> } {
  const distinct = new Set<string>();
  const perField = fields.map((field) => {
    const terms = doc[field] ?? [];
    for (const t of terms) distinct.add(t);
    const joined = terms.join(' ');
    const tokens = joined ? joined.split(' ') : [];
    const counts = new Map<string, number>();
    for (const t of tokens) if (t) counts.set(t, (counts.get(t) ?? 0) + 1);
    return { counts, length: new Set(tokens).size };
  });
  return { perField, distinct };
}

/** An empty array of `size` counts, in 16 bits unless one of `values` needs more. */
export function countArray(values: ArrayLike<number>, size: number): Uint16Array | Uint32Array {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i];
  return max < 65536 ? new Uint16Array(size) : new Uint32Array(size);
}

export class LexicalIndex implements PostingsSource {
  readonly fieldBoosts: Record<string, number>;
  readonly fields: string[];
  private readonly ids: string[];
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[];
  /** Documents per term over all fields (for "is this entity anywhere in the corpus?"). */
  private df: Uint32Array;
  private fieldPostings: FieldPostings[];
  private builders: PostingsBuilder[] | null = null;
  private dfCounts: number[] = [];
  private readonly scorer = new Bm25Scorer(this);

  constructor(docs: LexicalDoc[], fieldBoosts: Record<string, number>, restored?: LexicalIndexData) {
    this.fieldBoosts = fieldBoosts;
    this.fields = Object.keys(fieldBoosts);
    if (restored) {
      this.ids = restored.ids;
      this.terms = restored.terms;
      for (let t = 0; t < this.terms.length; t++) this.termIds.set(this.terms[t], t);
      this.df = restored.df;
      this.fieldPostings = restored.postings;
      if (docs.length) throw new Error('a restored lexical index takes no more documents');
      return;
    }
    this.ids = [];
    this.terms = [];
    this.df = new Uint32Array(0);
    this.fieldPostings = [];
    this.start();
    this.add(docs);
    this.finish();
  }

  /** Opens an empty index for documents (one that holds any is read-only: its postings are packed). */
  private start() {
    if (this.ids.length) throw new Error('this lexical index is complete');
    this.builders = this.fields.map(() => new PostingsBuilder());
  }

  /** The index as plain data, for a snapshot that survives a restart. */
  toData(): LexicalIndexData {
    return { fieldBoosts: this.fieldBoosts, ids: this.ids, terms: this.terms, df: this.df, postings: this.fieldPostings };
  }

  /** The index a snapshot holds: the same postings, read back without re-indexing a document. */
  static fromData(data: LexicalIndexData): LexicalIndex {
    return new LexicalIndex([], data.fieldBoosts, data);
  }

  /**
   * The same index built a few hundred documents at a time, yielding between them: the server builds its
   * indexes while it answers pages, and a corpus of records takes seconds to index.
   */
  static async build(docs: LexicalDoc[], fieldBoosts: Record<string, number>, slice = timeSlicer()): Promise<LexicalIndex> {
    const builder = LexicalIndex.builder(fieldBoosts);
    for (let i = 0; i < docs.length; i++) {
      builder.add(docs[i]);
      if (i % 250 === 249) await slice();
    }
    return builder.finish();
  }

  /**
   * The same index, given its documents one at a time: a caller that makes them one by one (the paragraph index)
   * need not hold every document's terms at once.
   */
  static builder(fieldBoosts: Record<string, number>): { add(doc: LexicalDoc): void; finish(): LexicalIndex } {
    const index = new LexicalIndex([], fieldBoosts);
    index.start();
    return {
      add: (doc) => index.add([doc]),
      finish: () => {
        index.finish();
        return index;
      },
    };
  }

  get size(): number {
    return this.ids.length;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.dfCounts.push(0);
      this.termIds.set(term, id);
    }
    return id;
  }

  private add(docs: LexicalDoc[]) {
    const builders = this.builders;
    if (!builders) throw new Error('this lexical index is complete');
    for (const d of docs) {
      const doc = this.ids.length;
      this.ids.push(d.id);
      const { perField, distinct } = countDocumentTerms(this.fields, d.fields);
      for (let f = 0; f < this.fields.length; f++) {
        const { counts, length } = perField[f];
        const builder = builders[f];
        builder.lengths.push(length);
        builder.averageLength = (builder.averageLength * doc + length) / (doc + 1);
        for (const [t, n] of counts) builder.push(this.termId(t), doc, n);
      }
      for (const t of distinct) this.dfCounts[this.termId(t)]++;
    }
  }

  private finish() {
    const builders = this.builders;
    if (!builders) return;
    this.fieldPostings = builders.map((b) => b.finish(this.terms.length));
    this.df = Uint32Array.from(this.dfCounts);
    this.builders = null;
    this.dfCounts = [];
  }

  documentFrequency(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.df[id];
  }

  /**
   * Top `limit` documents for the query terms (any term may match), best first. Terms found in more than
   * `maxDocumentShare` (default 10 %) of the documents are dropped first (their BM25 weight is small, yet each
   * drags hundreds of documents through scoring); the rarest three the index has are always kept. On the dev sets 10 % instead
   * of 20 % halved json-qr's p95 (47 → 22 ms plain, 56 → 31 ms hard) and moved its scores by at most 0.01.
   */
  query(terms: string[], opts: QueryOptions & { maxDocumentShare?: number } = {}): ScoredId[] {
    return this.scorer.query(keptTerms(this, terms, opts.maxDocumentShare), opts);
  }

  /** The index's terms that start with `prefix`, each with its document frequency (one scan of the vocabulary). */
  *termsWithPrefix(prefix: string): Generator<[string, number]> {
    for (let i = 0; i < this.terms.length; i++) if (this.terms[i].startsWith(prefix)) yield [this.terms[i], this.df[i]];
  }

  termNumber(word: string): number | undefined {
    return this.termIds.get(word);
  }

  postings(f: number, t: number) {
    const p = this.fieldPostings[f];
    const from = p.offsets[t];
    const to = p.offsets[t + 1];
    return { docs: p.docs.subarray(from, to), freqs: p.freqs.subarray(from, to) };
  }

  lengths(f: number) {
    return this.fieldPostings[f].lengths;
  }

  averageLength(f: number): number {
    return this.fieldPostings[f].averageLength;
  }

  idOf(doc: number): string {
    return this.ids[doc];
  }

  private docNumbers: Map<string, number> | null = null;

  /** The document number of an id (the map is made on first use). */
  docOf(id: string): number | undefined {
    if (!this.docNumbers) {
      this.docNumbers = new Map();
      for (let d = 0; d < this.ids.length; d++) this.docNumbers.set(this.ids[d], d);
    }
    return this.docNumbers.get(id);
  }

  /**
   * The documents of `docs` whose `field` holds `term`, by binary search in its postings (a term's documents are in
   * the order they were added): what a per-document set of terms would say, without keeping one.
   */
  docsHolding(field: string, term: string, docs: readonly number[]): Set<number> {
    const found = new Set<number>();
    const f = this.fields.indexOf(field);
    const t = this.termIds.get(term);
    if (f < 0 || t === undefined) return found;
    const { docs: posted } = this.postings(f, t);
    for (const doc of docs) {
      let lo = 0;
      let hi = posted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (posted[mid] < doc) lo = mid + 1;
        else hi = mid;
      }
      if (lo < posted.length && posted[lo] === doc) found.add(doc);
    }
    return found;
  }

  /** The same index searched over some fields only (the raw pipelines ignore the structure field). */
  view(fields: string[]): LexicalView {
    return {
      size: this.size,
      documentFrequency: (t) => this.documentFrequency(t),
      query: (terms, opts = {}) => this.query(terms, { ...opts, fields }),
    };
  }
}

/**
 * What the pipelines search: a lexical index over some fields, in this process (`LexicalIndex.view`) or in the
 * database (lexical-sources/database.ts, whose queries are asynchronous).
 */
export interface LexicalQueryOptions {
  limit?: number;
  filter?: (id: string) => boolean;
  maxDocumentShare?: number;
}

export interface LexicalView {
  size: number;
  documentFrequency(term: string): number;
  query(terms: string[], opts?: LexicalQueryOptions): ScoredId[] | Promise<ScoredId[]>;
}

/**
 * The query terms a search uses: those some document has, without the ones found in more than `maxDocumentShare`
 * (default 10 %) of the documents, the rarest three always kept. Shared by every LexicalView, so all search the same terms.
 */
export function keptTerms(index: Pick<LexicalView, 'size' | 'documentFrequency'>, terms: string[], maxDocumentShare = 0.1): string[] {
  const unique = [...new Set(terms)];
  const maxDf = maxDocumentShare * index.size;
  // Terms no document has match nothing; they must not take the places of the rarest three that are always kept.
  const byRarity = unique
    .map((t) => ({ t, df: index.documentFrequency(t) }))
    .filter((x) => x.df > 0)
    .sort((a, b) => a.df - b.df);
  return byRarity.filter((x, i) => i < 3 || x.df <= maxDf).map((x) => x.t);
}
