import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IndexedRecord } from './indexed.ts';
import { LexicalIndex, type LexicalDoc } from './lexical-index.ts';
import { RecordFileWriter } from './record-file.ts';
import { lazyRecordIndex } from './record-index.ts';
import { mergeRecordFiles } from './record-merge.ts';
import { openRecordFiles, recordFilesAt, recordPartFile, recordStageMarker } from './record-set.ts';

const FIELDS = { text: 1, structure: 1.5 };

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Documents over a skewed vocabulary (a few words in most documents, many rare ones), some terms of two words. */
function documents(n: number, seed: number): LexicalDoc[] {
  const next = random(seed);
  const word = () => `w${Math.floor(next() ** 3 * 400)}`;
  const terms = (k: number) => Array.from({ length: k }, () => (next() < 0.05 ? `${word()} ${word()}` : word()));
  return Array.from({ length: n }, (_, i) => ({
    id: `rec-${String(i).padStart(5, '0')}`,
    fields: { text: terms(5 + Math.floor(next() * 40)), structure: next() < 0.2 ? [] : terms(1 + Math.floor(next() * 6)) },
  }));
}

const recordOf = (d: LexicalDoc, i: number): IndexedRecord => ({
  id: d.id,
  paperId: i % 3 ? `paper-${i % 7}` : null,
  doi: i % 2 ? `10.9999/fx.${i}` : null,
  kind: 'recipe',
  title: `Record ${i}`,
  text: d.fields.text.join(' '),
  facets: {
    materials: new Set([`f:X${i % 5}`]),
    properties: new Set(),
    quantities: [{ dimension: 'temperature', values: [1000 + i, Number.NaN], range: true, text: `${i} °C` }],
  },
});

const dirs: string[] = [];
function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-record-file-'));
  dirs.push(dir);
  return path.join(dir, 'records-test.bin');
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const openRecordFile = (file: string) => openRecordFiles([file]);

/** Writes `docs` into `file`; `first`: the number of the first of them in the whole corpus (a part's). */
function write(file: string, docs: LexicalDoc[], first = 0) {
  const writer = new RecordFileWriter(file, FIELDS);
  for (const [i, d] of docs.entries()) writer.add(recordOf(d, first + i), d.fields);
  writer.finish();
}

describe('records index file', () => {
  it('ranks as the in-memory BM25 index does: the same ids, scores and order of equal scores', async () => {
    const docs = documents(3_000, 7);
    const file = tempFile();
    write(file, docs);
    const inMemory = await LexicalIndex.build(docs, FIELDS);
    const stored = openRecordFile(file);
    const next = random(11);
    let compared = 0;
    for (let q = 0; q < 200; q++) {
      const terms = Array.from({ length: 1 + Math.floor(next() * 6) }, () => `w${Math.floor(next() ** 2 * 450)}`);
      if (q % 10 === 0) terms.push('w3 w7', 'no-such-word');
      const opts = q % 4 === 0 ? { limit: 20, maxDocumentShare: 0.5 } : { limit: 100 };
      const expected = inMemory.query(terms, opts);
      expect(stored.lexical.query(terms, opts)).toEqual(expected);
      if (expected.length) compared++;
      for (const t of terms) expect(stored.lexical.documentFrequency(t)).toBe(inMemory.documentFrequency(t));
    }
    // The queries matched documents (else the comparison above says little).
    expect(compared).toBeGreaterThan(150);
    const only = (id: string) => id.endsWith('7');
    expect(stored.lexical.query(['w1', 'w2'], { filter: only })).toEqual(inMemory.query(['w1', 'w2'], { filter: only }));
    stored.close();
  });

  it('gives back each record as it was written, a new object each read', () => {
    const docs = documents(50, 3);
    const file = tempFile();
    write(file, docs);
    const stored = openRecordFile(file);
    expect(stored.records.size).toBe(50);
    for (const [i, d] of docs.entries()) expect(stored.records.get(d.id)).toEqual(recordOf(d, i));
    stored.records.get('rec-00004')!.facets.materials.clear();
    expect(stored.records.get('rec-00004')!.facets.materials.size).toBe(1);
    expect(stored.records.get('no-such-record')).toBeUndefined();
    stored.close();
  });

  it('writers make the folder they write into, and two writers of one index at once each write their own file', async () => {
    // The race CI met: the first records index of a data folder whose `index/` did not exist yet (ENOENT on the
    // partial file). Here two writers of the same target, in a folder not made yet, add their records interleaved, as
    // two threads of one process would (one pid): neither writes into the other's file, and the index is whole.
    const docs = documents(400, 5);
    const file = path.join(path.dirname(tempFile()), 'index', 'nested', 'records-race.bin');
    const writers = [new RecordFileWriter(file, FIELDS), new RecordFileWriter(file, FIELDS)];
    for (const [i, d] of docs.entries()) for (const w of writers) w.add(recordOf(d, i), d.fields);
    await Promise.all(writers.map(async (w) => w.finish()));
    const stored = openRecordFile(file);
    expect(stored.records.size).toBe(400);
    expect(stored.records.get('rec-00399')).toEqual(recordOf(docs[399], 399));
    stored.close();
    expect(fs.readdirSync(path.dirname(file))).toEqual(['records-race.bin']);
  });

  it('an empty corpus makes an index that finds nothing', () => {
    const file = tempFile();
    write(file, []);
    const stored = openRecordFile(file);
    expect(stored.lexical.query(['w1'])).toEqual([]);
    expect(stored.records.size).toBe(0);
    stored.close();
  });

  it('a file cut short or of another kind is refused, and an abandoned build leaves nothing', () => {
    const file = tempFile();
    write(file, documents(100, 5));
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 100));
    expect(() => openRecordFile(file)).toThrow(/not a records index/);
    fs.writeFileSync(file, 'hello');
    expect(() => openRecordFile(file)).toThrow(/not a records index/);
    const other = tempFile();
    const writer = new RecordFileWriter(other, FIELDS);
    writer.add(recordOf(documents(1, 1)[0], 0), documents(1, 1)[0].fields);
    writer.abandon();
    expect(fs.readdirSync(path.dirname(other))).toEqual([]);
  });
});

describe('records index in parts', () => {
  /** `docs` written whole into one file, and in parts cut at `cuts` (record numbers) beside it. */
  function wholeAndParts(docs: LexicalDoc[], cuts: number[]) {
    const whole = tempFile();
    write(whole, docs);
    const bounds = [0, ...cuts, docs.length];
    const base = path.join(path.dirname(whole), 'records-parts.bin');
    const files = bounds.slice(1).map((end, i) => {
      const file = recordPartFile(base, i + 1, bounds.length - 1);
      write(file, docs.slice(bounds[i], end), bounds[i]);
      return file;
    });
    return { whole: openRecordFile(whole), parts: openRecordFiles(files), base, files, wholeFile: whole };
  }

  it('merges its parts into the file one writer makes of the same records, byte for byte', async () => {
    const docs = documents(2_000, 37);
    docs[1_500].fields.text.push(...Array.from({ length: 70_000 }, () => 'w9'));
    const { whole, parts, base, files, wholeFile } = wholeAndParts(docs, [400, 401, 1_200]);
    whole.close();
    parts.close();
    await mergeRecordFiles(files, base);
    expect(fs.readFileSync(base).equals(fs.readFileSync(wholeFile))).toBe(true);
    expect(fs.readdirSync(path.dirname(base)).filter((f) => f.endsWith('.partial'))).toEqual([]);
    const merged = openRecordFile(base);
    const expected = openRecordFile(wholeFile);
    for (const q of [['w1', 'w9'], ['w3 w7'], ['w5']]) expect(merged.lexical.query(q)).toEqual(expected.lexical.query(q));
    merged.close();
    expected.close();
  });

  it('ranks exactly as one file of the same records: the same ids, scores and order of equal scores', () => {
    const docs = documents(3_000, 17);
    // One record says a word 70,000 times: its part's frequencies are 32-bit, the others' 16-bit.
    docs[2_000].fields.text.push(...Array.from({ length: 70_000 }, () => 'w5'));
    // Parts of unequal sizes, one of a single record (its words mostly absent from the others).
    const { whole, parts } = wholeAndParts(docs, [700, 701, 1_900, 2_400]);
    expect(parts.files).toBe(5);
    expect(parts.size).toBe(whole.size);
    const next = random(23);
    let compared = 0;
    for (let q = 0; q < 300; q++) {
      const terms = Array.from({ length: 1 + Math.floor(next() * 6) }, () => `w${Math.floor(next() ** 2 * 450)}`);
      if (q % 10 === 0) terms.push('w3 w7', 'no-such-word');
      const opts = q % 4 === 0 ? { limit: 20, maxDocumentShare: 0.5 } : q % 4 === 1 ? { limit: 5, fields: ['structure'] } : { limit: 100 };
      const expected = whole.lexical.query(terms, opts);
      expect(parts.lexical.query(terms, opts)).toEqual(expected);
      if (expected.length) compared++;
      for (const t of terms) expect(parts.lexical.documentFrequency(t)).toBe(whole.lexical.documentFrequency(t));
    }
    expect(compared).toBeGreaterThan(250);
    const only = (id: string) => id.endsWith('3');
    expect(parts.lexical.query(['w1', 'w9'], { filter: only })).toEqual(whole.lexical.query(['w1', 'w9'], { filter: only }));
    for (const [i, d] of docs.entries()) if (i % 97 === 0 || i === 700) expect(parts.records.get(d.id)).toEqual(recordOf(d, i));
    expect(parts.records.get('no-such-record')).toBeUndefined();
    whole.close();
    parts.close();
  });

  it('finds a records index whole or as a complete set of parts, never an incomplete one', () => {
    const docs = documents(200, 29);
    const { whole, parts, base, files } = wholeAndParts(docs, [50, 120]);
    whole.close();
    parts.close();
    expect(recordFilesAt(base)).toEqual(files);
    // Another count's parts, one missing: not a set.
    write(recordPartFile(base, 1, 2), docs.slice(0, 100));
    expect(recordFilesAt(base)).toEqual(files);
    fs.rmSync(files[1]);
    expect(recordFilesAt(base)).toBeNull();
    write(recordPartFile(base, 2, 2), docs.slice(100), 100);
    expect(recordFilesAt(base)).toEqual([recordPartFile(base, 1, 2), recordPartFile(base, 2, 2)]);
    // The whole file, once there, is read rather than parts.
    write(base, docs);
    expect(recordFilesAt(base)).toEqual([base]);
    expect(recordFilesAt(path.join(path.dirname(base), 'records-other.bin'))).toBeNull();
  });

  it('a first use while a records stage writes the parts waits for them; once the stage has stopped, it builds the index whole', async () => {
    const docs = documents(300, 31);
    const dir = path.dirname(tempFile());
    const base = path.join(dir, 'records-k.bin');
    fs.writeFileSync(recordStageMarker(base), 'a stage writing');
    let pages = 0;
    const loadPage = async () => {
      pages++;
      return [];
    };
    const asked = lazyRecordIndex(docs.length, loadPage, new Map()).keptIn(base).get();
    await new Promise((resolve) => setTimeout(resolve, 700));
    write(recordPartFile(base, 1, 2), docs.slice(0, 150));
    await new Promise((resolve) => setTimeout(resolve, 700));
    write(recordPartFile(base, 2, 2), docs.slice(150), 150);
    const index = await asked;
    expect(pages).toBe(0);
    expect(index.parts).toBe(2);
    expect(index.records.get(docs[200].id)).toEqual(recordOf(docs[200], 200));
    // A stage whose marker was last touched long ago has stopped: the index is built whole from the rows.
    const other = path.join(dir, 'records-j.bin');
    fs.writeFileSync(recordStageMarker(other), 'a stage that stopped');
    const long = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(recordStageMarker(other), long, long);
    const built = await lazyRecordIndex(0, loadPage, new Map()).keptIn(other).get();
    expect(pages).toBe(1);
    expect(built.parts).toBe(1);
  });
});
