/**
 * The graph pipelines' scratch space by tuple ordinal (see TupleOrdinals in graph-source.ts), reused from question to
 * question. A question naming a hub material has tens of thousands of candidates at ten times the shared corpus, and
 * arrays of that size made fresh for each question (3 MB for an array over every tuple) kept the worker's collector
 * busy: at ten times the shared corpus its young-generation collections took a fifth of the questions' time. Each
 * kind keeps a few spares: a worker answers a few questions at a time.
 */
const MAX_SPARES = 12;

/**
 * Scores by tuple ordinal, and the ordinals that have one in the order they got it (`at`). Scores are at least 0; an
 * ordinal without one reads as 0. Taken with `take`, given back with `release`.
 */
export class OrdinalScores {
  private scores: Float64Array;
  private members = new Int32Array(64);
  private count = 0;
  private constructor(size: number) {
    this.scores = new Float64Array(size).fill(-1);
  }
  static take(size: number): OrdinalScores {
    const s = spareScores.pop() ?? new OrdinalScores(size);
    s.reserve(size);
    return s;
  }
  /** Gives the arrays back for another question; the scores must not be read after. */
  release() {
    for (let i = 0; i < this.count; i++) this.scores[this.members[i]] = -1;
    this.count = 0;
    if (spareScores.length < MAX_SPARES) spareScores.push(this);
  }
  get size() {
    return this.count;
  }
  /** The i-th ordinal to get a score. */
  at(i: number) {
    return this.members[i];
  }
  has(o: number) {
    return o < this.scores.length && this.scores[o] >= 0;
  }
  get(o: number) {
    return this.has(o) ? this.scores[o] : 0;
  }
  set(o: number, score: number) {
    if (!this.has(o)) this.add(o);
    this.scores[o] = score;
  }
  /** Sets the score to `score` when it has none or a lower one. */
  raise(o: number, score: number) {
    if (!this.has(o)) this.add(o);
    else if (this.scores[o] >= score) return;
    this.scores[o] = score;
  }
  private add(o: number) {
    // A source that numbers ids as they come (tupleOrdinals) may give a later step larger ordinals than it had given.
    if (o >= this.scores.length) this.reserve(Math.max(2 * this.scores.length, o + 1));
    if (this.count === this.members.length) {
      const grown = new Int32Array(2 * this.members.length);
      grown.set(this.members);
      this.members = grown;
    }
    this.members[this.count++] = o;
  }
  private reserve(size: number) {
    if (size <= this.scores.length) return;
    const grown = new Float64Array(size).fill(-1);
    grown.set(this.scores);
    this.scores = grown;
  }
}
const spareScores: OrdinalScores[] = [];

/** The hybrid cut's parallel lists: each candidate's ordinal and score, and the indexes of those kept. */
export class CutArrays {
  candidates = new Int32Array(0);
  raw = new Float64Array(0);
  kept = new Int32Array(0);
  /** Lists of at least `n` (not cleared: the cut writes before it reads). */
  static take(n: number): CutArrays {
    const c = spareCuts.pop() ?? new CutArrays();
    if (c.raw.length < n) {
      const size = Math.max(n, 2 * c.raw.length);
      c.candidates = new Int32Array(size);
      c.raw = new Float64Array(size);
      c.kept = new Int32Array(size);
    }
    return c;
  }
  release() {
    if (spareCuts.length < MAX_SPARES) spareCuts.push(this);
  }
}
const spareCuts: CutArrays[] = [];
