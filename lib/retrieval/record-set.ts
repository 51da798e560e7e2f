import fs from 'node:fs';
import path from 'node:path';
import { Bm25Scorer, type PostingsSource, type ScoredId } from './bm25-scorer.ts';
import type { IndexedRecord } from './indexed.ts';
import { countArray, keptTerms, type LexicalView } from './lexical-index.ts';
import { type Footer, openRecordShard, type RecordShard } from './record-file.ts';

/**
 * A records index read from one file or from several, each written by a shard of the records stage (a range of
 * records in id order, lib/serving/record-shards.ts), as one index: BM25 over every file's terms and the records of
 * them all by id. Several are read only between the stage's last part and its merge (record-merge.ts). The files' postings are put end to end (a file's record numbers offset by the records of the files
 * before it), and the document counts, each term's document frequency per field and the field lengths are those of
 * all the records, with the average field length taken over them in the order the records were added, as one file's
 * writer takes it. So a question ranks exactly as over one file of the same records: the same ids, the same scores
 * and the same order of equal scores (tested in record-file.test.ts).
 */

/** A records index read from its files: BM25 over its terms, and its records by id. */
export interface RecordFile {
  size: number;
  /** A LexicalView whose queries answer at once (its postings are read synchronously). */
  lexical: Omit<LexicalView, 'query'> & { query(terms: string[], opts?: Parameters<LexicalView['query']>[1]): ScoredId[] };
  records: { size: number; get(id: string): IndexedRecord | undefined };
  /** Bytes of its files. */
  bytes: number;
  /** How many files it was read from. */
  files: number;
  close(): void;
}

/** The name of part `part` (from 1) of `of` of the records index kept under `base` (`records-<key>.bin`). */
export const recordPartFile = (base: string, part: number, of: number): string => base.replace(/\.bin$/, `.part-${part}-of-${of}.bin`);

/**
 * The files that hold the records index kept under `base`: `base` itself when a process built it whole, else a
 * complete set of parts (every part of one count present); null when there is neither.
 */
export function recordFilesAt(base: string): string[] | null {
  if (fs.existsSync(base)) return [base];
  const dir = path.dirname(base);
  const stem = path.basename(base).replace(/\.bin$/, '');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return null;
  }
  const parts = new Map<number, Set<number>>();
  for (const name of names) {
    const m = /^(.*)\.part-(\d+)-of-(\d+)\.bin$/.exec(name);
    if (!m || m[1] !== stem) continue;
    const of = Number(m[3]);
    if (!parts.has(of)) parts.set(of, new Set());
    parts.get(of)?.add(Number(m[2]));
  }
  for (const [of, got] of [...parts].sort((a, b) => a[0] - b[0]))
    if (Array.from({ length: of }, (_, i) => i + 1).every((p) => got.has(p))) return Array.from({ length: of }, (_, i) => recordPartFile(base, i + 1, of));
  return null;
}

/** The file a records stage keeps touched while it writes the parts kept under `base` (see `recordStageWriting`). */
export const recordStageMarker = (base: string): string => base.replace(/\.bin$/, '.writing');

/** How recently a records stage must have touched its marker to count as writing (it touches it every 10 s). */
export const RECORD_STAGE_FRESH_MS = 60_000;

/**
 * Whether a records stage (lib/serving/record-shards.ts), in this process or another sharing the folder, is writing the
 * parts kept under `base` now: a build on first use then waits for them instead of writing the whole index beside it.
 */
export function recordStageWriting(base: string): boolean {
  try {
    return Date.now() - fs.statSync(recordStageMarker(base)).mtimeMs < RECORD_STAGE_FRESH_MS;
  } catch {
    return false;
  }
}

const closeWhenCollected = new FinalizationRegistry<RecordShard[]>((shards) => {
  for (const s of shards)
    try {
      s.close();
    } catch {}
});

/** Opens the records index held by `files` (in the order their records were written); throws when one is not one. */
export function openRecordFiles(files: string[]): RecordFile {
  const shards: RecordShard[] = [];
  try {
    for (const f of files) shards.push(openRecordShard(f));
    return combined(shards);
  } catch (error) {
    for (const s of shards) s.close();
    throw error;
  }
}

/** Field `f`'s length of every record of the files, in order (32-bit when one file's are). */
export function mergedLengths(footers: Footer[], f: number): Uint16Array | Uint32Array {
  const all = countArray(
    footers.map((x) => (x.fields[f].lengths instanceof Uint32Array ? 65_536 : 0)),
    footers.reduce((n, x) => n + x.ids.length, 0),
  );
  for (let s = 0, at = 0; s < footers.length; at += footers[s].ids.length, s++) all.set(footers[s].fields[f].lengths, at);
  return all;
}

/** The average of `lengths` as a records file's writer takes it: a running mean, record by record. */
export function runningMean(lengths: ArrayLike<number>): number {
  let average = 0;
  for (let d = 0; d < lengths.length; d++) average = (average * d + lengths[d]) / (d + 1);
  return average;
}

/**
 * Every file's sorted terms merged into one sorted list, with each file's own number of every term of the list (-1:
 * the file does not hold it). One list of the words, whose strings the files' lists then let go of.
 */
export function mergedTerms(lists: string[][]): { terms: string[]; local: Int32Array[] } {
  if (lists.length === 1) return { terms: lists[0], local: [] };
  const terms: string[] = [];
  const heads = new Int32Array(lists.length);
  const numbers: number[][] = lists.map(() => []);
  for (;;) {
    let least: string | undefined;
    for (let s = 0; s < lists.length; s++) {
      const t = lists[s][heads[s]];
      if (t !== undefined && (least === undefined || t < least)) least = t;
    }
    if (least === undefined) break;
    terms.push(least);
    for (let s = 0; s < lists.length; s++)
      if (lists[s][heads[s]] === least) numbers[s].push(heads[s]++);
      else numbers[s].push(-1);
  }
  return { terms, local: numbers.map((n) => Int32Array.from(n)) };
}

function combined(shards: RecordShard[]): RecordFile {
  const footers = shards.map((s) => s.footer);
  const fieldBoosts = footers[0].fieldBoosts;
  const fields = Object.keys(fieldBoosts);
  for (const f of footers)
    if (JSON.stringify(f.fieldBoosts) !== JSON.stringify(fieldBoosts))
      throw new Error(`${shards.map((s) => s.file).join(', ')} are not parts of one records index`);
  // Record numbers: file s's record i is base[s] + i.
  const base = new Uint32Array(shards.length + 1);
  for (let s = 0; s < shards.length; s++) base[s + 1] = base[s] + footers[s].ids.length;
  const size = base[shards.length];
  const ids = shards.length === 1 ? footers[0].ids : footers.flatMap((f) => f.ids);
  const { terms, local } = mergedTerms(footers.map((f) => f.terms));
  // Frequencies are 32-bit in a list of several files' postings when one file's are.
  const wideFreqs = fields.map((_, f) => footers.some((x) => x.fields[f].wideFreqs));
  const df = shards.length === 1 ? footers[0].df : new Uint32Array(terms.length);
  if (shards.length > 1)
    for (let t = 0; t < terms.length; t++)
      for (let s = 0; s < shards.length; s++) {
        const n = local[s][t];
        if (n >= 0) df[t] += footers[s].df[n];
      }
  // Per field: every record's length, and their average as one writer takes it.
  const lengths = fields.map((_, f) => mergedLengths(footers, f));
  const averages = lengths.map(runningMean);
  // What the merged lists hold now (terms, lengths) is let go of by the files' footers.
  for (const f of footers) {
    f.terms = [];
    for (const field of f.fields) field.lengths = new Uint16Array(0);
  }
  const termNumber = (word: string): number | undefined => {
    let lo = 0;
    let hi = terms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const t = terms[mid];
      if (t === word) return mid;
      if (t < word) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  };
  const source: PostingsSource = {
    size,
    fields,
    fieldBoosts,
    termNumber,
    postings(f, t) {
      if (shards.length === 1) return shards[0].postings(f, t);
      // Each file's postings read straight into their place in one list, then numbered as records of all the files.
      let total = 0;
      for (let s = 0; s < shards.length; s++) {
        const n = local[s][t];
        if (n >= 0) total += shards[s].postingCount(f, n);
      }
      const docs = new Uint32Array(total);
      const freqs = wideFreqs[f] ? new Uint32Array(total) : new Uint16Array(total);
      for (let s = 0, at = 0; s < shards.length; s++) {
        const n = local[s][t];
        if (n < 0) continue;
        const count = shards[s].postingCount(f, n);
        shards[s].readPostings(f, n, docs.subarray(at, at + count), freqs.subarray(at, at + count));
        if (base[s]) for (let i = at; i < at + count; i++) docs[i] += base[s];
        at += count;
      }
      return { docs, freqs };
    },
    lengths: (f) => lengths[f],
    averageLength: (f) => averages[f],
    idOf: (doc) => ids[doc],
  };
  const scorer = new Bm25Scorer(source);
  const documentFrequency = (term: string) => {
    const t = termNumber(term);
    return t === undefined ? 0 : df[t];
  };
  const position = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) position.set(ids[i], i);
  /** The file a record number is in (the last whose first record is at or before it). */
  const shardOf = (doc: number): number => {
    let lo = 0;
    let hi = shards.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (base[mid] <= doc) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const handle: RecordFile = {
    size,
    files: shards.length,
    bytes: shards.reduce((n, s) => n + s.bytes, 0),
    lexical: {
      size,
      documentFrequency,
      query: (queryTerms, opts = {}) => scorer.query(keptTerms({ size, documentFrequency }, queryTerms, opts.maxDocumentShare), opts),
    },
    records: {
      size,
      get(id) {
        const doc = position.get(id);
        if (doc === undefined) return undefined;
        const s = shardOf(doc);
        return shards[s].record(doc - base[s]);
      },
    },
    close: () => {
      closeWhenCollected.unregister(handle);
      for (const s of shards) s.close();
    },
  };
  // An index let go of without `close` (a corpus change replaced it) closes its files once collected.
  closeWhenCollected.register(handle, shards, handle);
  return handle;
}
