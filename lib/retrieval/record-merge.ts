import fs from 'node:fs';
import { timeSlicer } from '../common/yield.ts';
import { type FieldFooter, type Footer, footerBytes, openRecordShard, type RecordShard } from './record-file.ts';
import { mergedLengths, mergedTerms, runningMean } from './record-set.ts';

/**
 * The parts of a records index (the records stage's shards wrote one each, lib/serving/record-shards.ts) merged into
 * one file of the format a single writer makes (record-file.ts): the records one part after the other, each field's
 * postings term by term with every part's postings of the term end to end (record numbers offset by the parts before),
 * and a footer with the terms merged, document frequencies summed, and lengths and averages as one writer takes
 * them. Read as one file, the index ranks as the parts do, read together (record-set.ts), and as a single writer's
 * file of the same records does; but a question reads each term's postings once instead of once per part (at ten
 * times the shared corpus, 12 parts: p95 15–17 ms per query against 12–13 ms for one file, and twice the time to open).
 *
 * Each part is read front to back once per field (its postings are in its own term order, which the merged order
 * keeps), through buffers of a megabyte: the merge holds the footers and those buffers, not the postings.
 * Written aside and renamed over, as every records file. It gives the event loop turns (timeSlicer): the server's
 * thread may be the one merging.
 */
export async function mergeRecordFiles(files: string[], target: string): Promise<void> {
  const shards: RecordShard[] = [];
  const partial = `${target}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.partial`;
  let fd: number | null = null;
  try {
    for (const f of files) shards.push(openRecordShard(f));
    fd = fs.openSync(partial, 'w');
    const out = new Output(fd);
    const slice = timeSlicer();
    const footers = shards.map((s) => s.footer);
    // The records: every part's, in order, with their offsets in the merged file.
    const size = footers.reduce((n, f) => n + f.ids.length, 0);
    const recordAt = new Float64Array(size + 1);
    for (let s = 0, doc = 0; s < shards.length; s++) {
      const at = out.position;
      const region = footers[s].recordAt;
      const ids = footers[s].ids.length;
      await copyRegion(shards[s].file, 0, region[ids], out, slice);
      for (let i = 1; i <= ids; i++) recordAt[doc + i] = at + region[i];
      doc += ids;
    }
    const { terms, local } = mergedTerms(footers.map((f) => f.terms));
    // The merged list holds every word once: the parts' own lists (a copy of most words each) are let go of.
    if (shards.length > 1) for (const f of footers) f.terms = [];
    const localOf = (s: number, t: number) => (local.length ? local[s][t] : t);
    const df = new Uint32Array(terms.length);
    for (let t = 0; t < terms.length; t++)
      for (let s = 0; s < shards.length; s++) {
        const n = localOf(s, t);
        if (n >= 0) df[t] += footers[s].df[n];
      }
    const fields: FieldFooter[] = [];
    for (let f = 0; f < Object.keys(footers[0].fieldBoosts).length; f++) {
      const offsets = new Uint32Array(terms.length + 1);
      for (let t = 0; t < terms.length; t++) {
        let n = 0;
        for (let s = 0; s < shards.length; s++) {
          const l = localOf(s, t);
          if (l >= 0) n += shards[s].postingCount(f, l);
        }
        offsets[t + 1] = offsets[t] + n;
      }
      const wideFreqs = footers.some((x) => x.fields[f].wideFreqs);
      out.align();
      const docsAt = out.position;
      await mergePostings(shards, terms.length, localOf, f, 'docs', out, wideFreqs, slice);
      out.align();
      const freqsAt = out.position;
      await mergePostings(shards, terms.length, localOf, f, 'freqs', out, wideFreqs, slice);
      const lengths = mergedLengths(footers, f);
      fields.push({ offsets, docsAt, freqsAt, wideFreqs, lengths, averageLength: runningMean(lengths) });
    }
    // Pushed one by one, as a writer's are: V8 writes an array flatMap made as a sparse one (another file's bytes).
    const ids: string[] = [];
    for (const f of footers) for (const id of f.ids) ids.push(id);
    const footer: Footer = { fieldBoosts: footers[0].fieldBoosts, recordAt, ids, terms, df, fields };
    for (const bytes of footerBytes(footer)) out.writeNow(bytes);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(partial, target);
  } finally {
    for (const s of shards) s.close();
    if (fd !== null) fs.closeSync(fd);
    fs.rmSync(partial, { force: true });
  }
}

/** Field `f`'s documents (numbered as records of all the parts) or frequencies, term by term, every part's in turn. */
async function mergePostings(
  shards: RecordShard[],
  termCount: number,
  localOf: (s: number, t: number) => number,
  f: number,
  what: 'docs' | 'freqs',
  out: Output,
  wideFreqs: boolean,
  slice: () => Promise<void>,
) {
  const width = what === 'docs' || wideFreqs ? 4 : 2;
  const readers = shards.map((s) => {
    const p: FieldFooter = s.footer.fields[f];
    const own = what === 'docs' || p.wideFreqs ? 4 : 2;
    return new RegionReader(s.file, what === 'docs' ? p.docsAt : p.freqsAt, own);
  });
  const base: number[] = [];
  for (let s = 0, n = 0; s < shards.length; n += shards[s].footer.ids.length, s++) base.push(what === 'docs' ? n : 0);
  const buffer = new ArrayBuffer(1 << 20);
  const values = width === 4 ? new Uint32Array(buffer) : new Uint16Array(buffer);
  let used = 0;
  try {
    for (let t = 0; t < termCount; t++) {
      if (t % 256 === 0) await slice();
      for (let s = 0; s < shards.length; s++) {
        const l = localOf(s, t);
        if (l < 0) continue;
        for (let left = shards[s].postingCount(f, l); left > 0; left--) {
          values[used++] = readers[s].next() + base[s];
          if (used === values.length) {
            out.writeNow(new Uint8Array(buffer, 0, used * width));
            used = 0;
          }
        }
      }
    }
    if (used) out.writeNow(new Uint8Array(buffer, 0, used * width));
  } finally {
    for (const r of readers) r.close();
  }
}

/** Values of one width read front to back from `at` in a file, a megabyte at a time. */
class RegionReader {
  private readonly fd: number;
  private readonly bytes = new Uint8Array(1 << 20);
  private readonly view: Uint16Array | Uint32Array;
  private index = 0;
  private count = 0;
  constructor(
    file: string,
    private at: number,
    width: number,
  ) {
    this.fd = fs.openSync(file, 'r');
    this.view = width === 4 ? new Uint32Array(this.bytes.buffer) : new Uint16Array(this.bytes.buffer);
  }
  next(): number {
    if (this.index === this.count) {
      const n = fs.readSync(this.fd, this.bytes, 0, this.bytes.byteLength, this.at);
      if (n <= 0) throw new Error('a records index part is shorter than its footer says');
      this.at += n;
      this.count = Math.floor(n / this.view.BYTES_PER_ELEMENT);
      this.index = 0;
    }
    return this.view[this.index++];
  }
  close() {
    fs.closeSync(this.fd);
  }
}

/** The merged file, written at its end. */
class Output {
  position = 0;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  constructor(private readonly fd: number) {}
  write(bytes: Uint8Array) {
    this.pending.push(bytes);
    this.pendingBytes += bytes.byteLength;
    this.position += bytes.byteLength;
    if (this.pendingBytes >= 4 << 20) this.flush();
  }
  /** To a multiple of 8 bytes, as a writer puts a field's postings (typed arrays read in place). */
  align() {
    this.write(new Uint8Array((8 - (this.position % 8)) % 8));
  }
  /** Writes `bytes` at once, after what is pending (a buffer about to be reused: not kept). */
  writeNow(bytes: Uint8Array) {
    this.flush();
    this.put(bytes);
    this.position += bytes.byteLength;
  }
  flush() {
    if (!this.pending.length) return;
    const all = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.put(all);
  }
  private put(bytes: Uint8Array) {
    for (let done = 0; done < bytes.byteLength; ) done += fs.writeSync(this.fd, bytes, done, bytes.byteLength - done);
  }
}

/** Bytes `from` .. `to` of `file`, copied to `out` a few megabytes at a time. */
async function copyRegion(file: string, from: number, to: number, out: Output, slice: () => Promise<void>) {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = new Uint8Array(4 << 20);
    for (let at = from; at < to; ) {
      await slice();
      const n = fs.readSync(fd, chunk, 0, Math.min(chunk.byteLength, to - at), at);
      if (n <= 0) throw new Error(`${file} is shorter than its footer says`);
      out.writeNow(chunk.subarray(0, n));
      at += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}
