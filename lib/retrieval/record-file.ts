import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import type { IndexedRecord } from './indexed.ts';
import { countArray, countDocumentTerms } from './lexical-index.ts';
import { deserializeCopying } from './snapshot-files.ts';

/**
 * The records index as a file, read a term and a record at a time. At ten times the shared corpus there are 462,000
 * records: held in a retrieval worker as packed columns and typed-array postings they took 0.53 GB, and building them
 * there took the server over 2 GiB. In a file the worker holds the term list, the document frequencies, the offsets
 * of each term's postings, the field lengths and the record ids; a question reads the postings of its few terms and
 * the few hundred records it ranks (from the page cache once read), and is scored by the same BM25 code as the
 * in-memory index (bm25-scorer.ts), so the ranked lists are those the same documents give there.
 *
 * Layout: the records (each V8-serialized), then per field the postings' documents (Uint32) and frequencies (Uint16,
 * or Uint32 when one needs it) ordered by term, then a footer (V8-serialized: ids, sorted terms, frequencies,
 * offsets, lengths), then the footer's length and a magic word. Written aside and renamed over: a file either is
 * whole or is not there.
 */

const MAGIC = 'ASSAYRX1';
const TRAILER = 16;

export interface FieldFooter {
  offsets: Uint32Array;
  docsAt: number;
  freqsAt: number;
  wideFreqs: boolean;
  lengths: Uint16Array | Uint32Array;
  averageLength: number;
}

export interface Footer {
  fieldBoosts: Record<string, number>;
  /** Record i is bytes recordAt[i] .. recordAt[i + 1]. */
  recordAt: Float64Array;
  ids: string[];
  /** Sorted (code-unit order), so that a word is found by binary search without a Map of every term. */
  terms: string[];
  df: Uint32Array;
  fields: FieldFooter[];
}

/** What ends a records index file: its footer, then the footer's length and the magic word (not copied together). */
export function footerBytes(footer: Footer): [Buffer, Buffer] {
  const bytes = v8.serialize(footer);
  const trailer = Buffer.alloc(TRAILER);
  trailer.writeDoubleLE(bytes.byteLength, 0);
  trailer.write(MAGIC, 8, 'latin1');
  return [bytes, trailer];
}

/** A growable Uint32Array. */
class Column {
  values = new Uint32Array(1024);
  size = 0;
  push(v: number) {
    if (this.size === this.values.length) {
      const grown = new Uint32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = v;
  }
  increment(i: number) {
    while (this.size <= i) this.push(0);
    this.values[i]++;
  }
}

/** Postings (term, document, frequency) of one field, spilled to a file a batch at a time while records are added. */
class Spill {
  private readonly fd: number;
  private readonly batch = new Uint32Array(3 * 65_536);
  private used = 0;
  maxFreq = 0;
  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w');
  }
  push(term: number, doc: number, freq: number) {
    this.batch[this.used++] = term;
    this.batch[this.used++] = doc;
    this.batch[this.used++] = freq;
    if (freq > this.maxFreq) this.maxFreq = freq;
    if (this.used === this.batch.length) this.flush();
  }
  flush() {
    fs.writeSync(this.fd, new Uint8Array(this.batch.buffer, 0, this.used * 4));
    this.used = 0;
  }
  /** Every spilled posting in the order pushed, a batch at a time. */
  *read(): Generator<Uint32Array> {
    this.flush();
    const fd = fs.openSync(this.file, 'r');
    try {
      for (let at = 0; ; ) {
        const n = fs.readSync(fd, new Uint8Array(this.batch.buffer), 0, this.batch.byteLength, at);
        if (n === 0) return;
        at += n;
        yield this.batch.subarray(0, n / 4);
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  private closed = false;
  close() {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
    fs.rmSync(this.file, { force: true });
  }
}

/**
 * Writes a records index to `file`, a record at a time: each record goes to the file as it is added, its postings to a
 * spill file per field, so that the writer holds the ids, the terms and per-field counts, not the postings (at ten
 * times the shared corpus the in-memory build held over 1 GB). `finish` sorts the postings by term one field at a
 * time. Terms and lengths are counted by `LexicalIndex`'s own `countDocumentTerms`.
 */
export class RecordFileWriter {
  private readonly partial: string;
  private readonly fd: number;
  private readonly fields: string[];
  private position = 0;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private readonly recordAt: number[] = [0];
  private readonly ids: string[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly df = new Column();
  private readonly perField: { spill: Spill; counts: Column; lengths: number[]; averageLength: number }[];

  constructor(
    private readonly file: string,
    private readonly fieldBoosts: Record<string, number>,
  ) {
    // The writer makes the folder it writes into (a data folder's `index/` may not exist yet when the first records
    // question or stage comes), and its partial file is its own: two writers of one index, in two processes or two
    // threads of one process (the same pid), never write into one file; the last rename wins, whole.
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.partial = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.partial`;
    this.fd = fs.openSync(this.partial, 'w');
    this.fields = Object.keys(fieldBoosts);
    this.perField = this.fields.map((_, f) => ({ spill: new Spill(`${this.partial}.${f}`), counts: new Column(), lengths: [], averageLength: 0 }));
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.termIds.set(term, id);
    }
    return id;
  }

  private write(bytes: Uint8Array) {
    this.pending.push(bytes);
    this.pendingBytes += bytes.byteLength;
    if (this.pendingBytes >= 1 << 20) this.flush();
  }

  private flush() {
    if (!this.pending.length) return;
    const all = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.writeNow(all);
  }

  /** Writes `bytes` at the end at once (a field's postings: not copied into the pending buffer). */
  private writeNow(bytes: Uint8Array) {
    this.flush();
    for (let done = 0; done < bytes.byteLength; ) done += fs.writeSync(this.fd, bytes, done, bytes.byteLength - done, this.position + done);
    this.position += bytes.byteLength;
  }

  add(record: IndexedRecord, fields: Record<string, string[]>): void {
    const doc = this.ids.length;
    this.ids.push(record.id);
    const blob = v8.serialize(record);
    this.write(blob);
    this.recordAt.push(this.recordAt[this.recordAt.length - 1] + blob.byteLength);
    const { perField, distinct } = countDocumentTerms(this.fields, fields);
    for (let f = 0; f < this.fields.length; f++) {
      const { counts, length } = perField[f];
      const field = this.perField[f];
      field.lengths.push(length);
      field.averageLength = (field.averageLength * doc + length) / (doc + 1);
      for (const [t, n] of counts) {
        const id = this.termId(t);
        field.spill.push(id, doc, n);
        field.counts.increment(id);
      }
    }
    for (const t of distinct) this.df.increment(this.termId(t));
  }

  /** Writes the postings and the footer, and puts the file in place. */
  finish(): void {
    try {
      this.flush();
      const termCount = this.terms.length;
      const order = Array.from(this.terms.keys()).sort((a, b) => (this.terms[a] < this.terms[b] ? -1 : this.terms[a] > this.terms[b] ? 1 : 0));
      const rank = new Uint32Array(termCount);
      for (let r = 0; r < termCount; r++) rank[order[r]] = r;
      const fields = this.perField.map((field) => this.writePostings(field, order, rank));
      const df = new Uint32Array(termCount);
      for (let r = 0; r < termCount; r++) df[r] = this.df.values[order[r]] ?? 0;
      const footer: Footer = {
        fieldBoosts: this.fieldBoosts,
        recordAt: Float64Array.from(this.recordAt),
        ids: this.ids,
        terms: order.map((t) => this.terms[t]),
        df,
        fields,
      };
      for (const bytes of footerBytes(footer)) this.writeNow(bytes);
      fs.closeSync(this.fd);
      fs.renameSync(this.partial, this.file);
    } catch (error) {
      this.abandon();
      throw error;
    } finally {
      for (const field of this.perField) field.spill.close();
    }
  }

  /** Removes what was written (a build that failed or was stopped). */
  abandon(): void {
    try {
      fs.closeSync(this.fd);
    } catch {}
    fs.rmSync(this.partial, { force: true });
    for (const field of this.perField) field.spill.close();
  }

  /** One field's postings sorted by term (documents in the order added), written; what the footer keeps of them. */
  private writePostings(field: RecordFileWriter['perField'][number], order: number[], rank: Uint32Array): FieldFooter {
    const termCount = order.length;
    const offsets = new Uint32Array(termCount + 1);
    for (let r = 0; r < termCount; r++) offsets[r + 1] = offsets[r] + (field.counts.values[order[r]] ?? 0);
    const total = offsets[termCount];
    const next = offsets.slice(0, termCount);
    const docs = new Uint32Array(total);
    const wideFreqs = field.spill.maxFreq >= 65_536;
    const freqs = wideFreqs ? new Uint32Array(total) : new Uint16Array(total);
    for (const batch of field.spill.read())
      for (let i = 0; i < batch.length; i += 3) {
        const at = next[rank[batch[i]]]++;
        docs[at] = batch[i + 1];
        freqs[at] = batch[i + 2];
      }
    this.flush();
    const align = () => this.writeNow(new Uint8Array((8 - (this.position % 8)) % 8));
    align();
    const docsAt = this.position;
    this.writeNow(new Uint8Array(docs.buffer));
    align();
    const freqsAt = this.position;
    this.writeNow(new Uint8Array(freqs.buffer));
    const lengths = countArray(field.lengths, field.lengths.length);
    lengths.set(field.lengths);
    return { offsets, docsAt, freqsAt, wideFreqs, lengths, averageLength: field.averageLength };
  }
}

/**
 * One records index file, opened: its footer (what a reader holds of it) and reads of its postings and records. A
 * records index is one such file or several, each of a range of records (record-set.ts reads them as one index).
 */
export interface RecordShard {
  file: string;
  /** Bytes of the file. */
  bytes: number;
  footer: Footer;
  /** Field `f`'s postings of the file's term number `t`, read from the file. */
  postings(f: number, t: number): { docs: Uint32Array; freqs: Uint16Array | Uint32Array };
  /** How many postings field `f` holds of term number `t`. */
  postingCount(f: number, t: number): number;
  /** Reads them into `docs` and `freqs` (of that length: views into a longer list of several files' postings). */
  readPostings(f: number, t: number, docs: Uint32Array, freqs: Uint16Array | Uint32Array): void;
  /** The file's record `i` (in the order written). */
  record(i: number): IndexedRecord;
  close(): void;
}

/** Opens a records index file; throws when it is not one (cut short, another format). */
export function openRecordShard(file: string): RecordShard {
  const fd = fs.openSync(file, 'r');
  try {
    const bytes = fs.fstatSync(fd).size;
    const read = (at: number, length: number, into: Uint8Array = new Uint8Array(length)) => {
      if (length > 0 && fs.readSync(fd, into, 0, length, at) !== length) throw new Error(`${file} is shorter than its footer says`);
      return into;
    };
    if (bytes < TRAILER) throw new Error(`${file} is not a records index`);
    const trailer = Buffer.from(read(bytes - TRAILER, TRAILER));
    if (trailer.toString('latin1', 8) !== MAGIC) throw new Error(`${file} is not a records index`);
    const footerBytes = trailer.readDoubleLE(0);
    const footer = deserializeCopying(Buffer.from(read(bytes - TRAILER - footerBytes, footerBytes))) as Footer;
    const { recordAt } = footer;
    const postingCount = (f: number, t: number) => footer.fields[f].offsets[t + 1] - footer.fields[f].offsets[t];
    const readPostings = (f: number, t: number, docs: Uint32Array, freqs: Uint16Array | Uint32Array) => {
      const p = footer.fields[f];
      const from = p.offsets[t];
      read(p.docsAt + 4 * from, docs.byteLength, new Uint8Array(docs.buffer, docs.byteOffset, docs.byteLength));
      // The file's own width, into a list of the other width when another file's needed 32 bits.
      const width = p.wideFreqs ? 4 : 2;
      const into = freqs.BYTES_PER_ELEMENT === width ? freqs : p.wideFreqs ? new Uint32Array(freqs.length) : new Uint16Array(freqs.length);
      read(p.freqsAt + width * from, into.byteLength, new Uint8Array(into.buffer, into.byteOffset, into.byteLength));
      if (into !== freqs) freqs.set(into);
    };
    return {
      file,
      bytes,
      footer,
      postingCount,
      readPostings,
      postings(f, t) {
        const n = postingCount(f, t);
        const docs = new Uint32Array(n);
        const freqs = footer.fields[f].wideFreqs ? new Uint32Array(n) : new Uint16Array(n);
        readPostings(f, t, docs, freqs);
        return { docs, freqs };
      },
      record: (i) => v8.deserialize(read(recordAt[i], recordAt[i + 1] - recordAt[i])) as IndexedRecord,
      close: () => fs.closeSync(fd),
    };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}
