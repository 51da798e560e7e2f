import type { CorpusRecord } from '../db/retrieval-corpus.ts';
import { recordEntries } from '../structure/record-mapping.ts';
import { forgetPlainTerms, formulaKey, plainTerms } from '../structure/terms.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lazyOnce } from '../common/lazy.ts';
import { processRunning } from '../common/process-running.ts';
import { timeSlicer } from '../common/yield.ts';
import { releaseMemory } from '../common/release-memory.ts';
import { type Facets, facetTerms, type QuantityFacet } from './facets.ts';
import { RecordFileWriter } from './record-file.ts';
import { openRecordFiles, type RecordFile, recordFilesAt, recordStageWriting } from './record-set.ts';

/**
 * The records index: imported recipes and experiments rendered through the record mapping, BM25 + facets. Built on
 * first use (only the records pipeline reads it), from the database a page of rows at a time: each row is rendered
 * and written to the index's file (record-file.ts), then let go of, so the build holds one page of rows, and the
 * index a question searches is read from that file a term and a record at a time.
 */

function renderRecord(r: CorpusRecord): { text: string; facets: Facets } {
  const data = (r.data ?? {}) as Record<string, unknown>;
  const { synthesis, performance } = recordEntries(r.id, r.kind, data);
  const lines: string[] = [];
  const materials = new Set<string>();
  const quantities: QuantityFacet[] = [];
  const properties = new Set<string>();
  const addMaterial = (m: { text: string; key: string; formula: string | null }) => {
    const fk = m.formula ? formulaKey(m.formula) : null;
    if (fk) materials.add(`f:${fk}`);
    else if (!m.key.startsWith('name:')) materials.add(`m:${m.key}`);
  };
  for (const s of synthesis) {
    const names = (list: { text: string }[]) => list.map((m) => m.text).join(', ');
    lines.push(`synthesis (${s.method ?? 'unknown method'}) of ${names(s.targets)} from ${names(s.precursors)}`);
    if (s.solvents.length) lines.push(`in ${names(s.solvents)}`);
    for (const m of [...s.targets, ...s.precursors, ...s.solvents, ...s.additives, ...s.substrates]) addMaterial(m);
    for (const c of [...s.conditions.temperature, ...s.conditions.time]) {
      lines.push(`${c.step ?? ''} ${c.text}`.trim());
      const dimension = s.conditions.temperature.includes(c as never) ? 'temperature' : 'time';
      quantities.push({ dimension, values: c.canonical, range: c.canonical.length === 2, text: c.text });
    }
    if (s.conditions.atmosphere.length) lines.push(`atmosphere ${s.conditions.atmosphere.join(', ')}`);
  }
  for (const p of performance) {
    lines.push(`${p.material ?? ''} ${p.property} ${p.value.join('–')} ${p.unit}`.trim());
    if (p.materialKey) materials.add(p.materialKey.startsWith('name:') ? p.materialKey : `m:${p.materialKey}`);
    properties.add(p.property);
  }
  // Materials come from the mapped entries (formulas already normalised), not from re-reading the text.
  return { text: [r.title ?? '', ...lines].filter(Boolean).join('. '), facets: { materials, properties, quantities } };
}

/** The records index's BM25 fields and their boosts. */
const FIELDS = { text: 1, structure: 1.5 };

export interface RecordIndex {
  records: RecordFile['records'];
  lexical: RecordFile['lexical'];
  buildSeconds: number;
  /**
   * Where it is kept: a data folder's `records-<key>.bin` (read back by a restart), or null (a file of this process
   * only). Whole in that file, or in a set of parts beside it (`parts`).
   */
  file: string | null;
  /** How many files it is read from (1: one file; more: the parts the records stage's shards wrote). */
  parts: number;
  /** Bytes of its files (what the page cache may hold of them; the process holds the terms, ids and lengths). */
  bytes: number;
}

export interface LazyRecordIndex {
  /** Number of records (known without building). */
  size: number;
  get(): Promise<RecordIndex>;
  /**
   * The same records, read from `file` (or the complete set of parts kept under its name) when it holds their index,
   * else built into it (and kept there).
   */
  keptIn(file: string): LazyRecordIndex;
}

/**
 * What the records index reads of a paper: its id by DOI (lower case; of two papers with one DOI, the later id's), for
 * records that name a DOI and no paper.
 */
export function paperByDoiOf(papers: Iterable<{ id: string; doi: string | null }>): Map<string, string> {
  const byDoi = new Map<string, string>();
  for (const p of papers) if (p.doi) byDoi.set(p.doi.toLowerCase(), p.id);
  return byDoi;
}

/**
 * Writes the records index of the rows `loadPage` gives into `file`, a page of rows at a time: the whole index, or one
 * part of it (the rows of one range, a records shard's).
 */
export async function writeRecordFile(
  file: string,
  loadPage: (after: string | null) => Promise<CorpusRecord[]>,
  paperByDoi: Map<string, string>,
  signal?: AbortSignal,
): Promise<void> {
  const writer = new RecordFileWriter(file, FIELDS);
  try {
    const slice = timeSlicer();
    for (let after: string | null = null, pages = 0; ; pages++) {
      // What the last page left behind (its rows, rendered texts and terms) is collected before the next is read:
      // the build keeps only ids, terms and counts. At ten times the shared corpus (93 pages of 5,000) the heap
      // peaked at 523 MB collecting every 8 pages and at 232 MB collecting every page, for 213 s against 203 s.
      if (pages > 0) releaseMemory(1);
      // Stopped (a shard's process shuts down): nothing is left of the file, and the shard is written again.
      signal?.throwIfAborted();
      const rows = await loadPage(after);
      if (!rows.length) break;
      for (const r of rows) {
        await slice();
        const { text, facets } = renderRecord(r);
        const paperId = r.paperId ?? (r.doi ? (paperByDoi.get(r.doi.toLowerCase()) ?? null) : null);
        writer.add({ id: r.id, paperId, doi: r.doi, kind: r.kind, title: r.title, text, facets }, { text: plainTerms(text), structure: facetTerms(facets) });
      }
      after = rows[rows.length - 1].id;
    }
    writer.finish();
  } catch (error) {
    writer.abandon();
    throw error;
  } finally {
    forgetPlainTerms();
  }
}

/**
 * `loadPage(after)`: the records after id `after` (null: from the first) in id order, a page at a time; an empty
 * page is the end. `file`: where the index is kept (a data folder's, see index-snapshot.ts); without one it is built
 * into a file of this process's own, removed once open (the open file stays readable until the index is let go of).
 */
export function lazyRecordIndex(
  count: number,
  loadPage: (after: string | null) => Promise<CorpusRecord[]>,
  paperByDoi: Map<string, string>,
  file: string | null = null,
): LazyRecordIndex {
  return {
    size: count,
    keptIn: (at) => lazyRecordIndex(count, loadPage, paperByDoi, at),
    get: lazyOnce(async () => {
      const t0 = performance.now();
      const kept = file ? await keptFiles(file) : null;
      if (file && kept) {
        try {
          return { ...openIndex(kept), file, buildSeconds: (performance.now() - t0) / 1000 };
        } catch {
          // Not a records index of this format (cut short, older code): built again below.
          for (const f of kept) fs.rmSync(f, { force: true });
        }
      }
      const target = file ?? path.join(os.tmpdir(), `assay-records-${process.pid}-${Math.random().toString(36).slice(2)}.bin`);
      await writeRecordFile(target, loadPage, paperByDoi);
      if (file) removeRecordFilesExcept(file);
      const opened = openIndex([target]);
      if (!file) fs.rmSync(target, { force: true });
      releaseMemory(1);
      return { ...opened, file, buildSeconds: (performance.now() - t0) / 1000 };
    }),
  };
}

/**
 * The files of the records index kept under `base` (recordFilesAt). While a records stage writes its parts (the
 * import's last stage, or a start's after an upgrade), they once all are there, rather than a whole index written
 * beside them by the first records question (at ten times the shared corpus that doubled the work, on the cores the
 * stage was using). Null when there are none, or when the stage stopped (its marker went stale) before they were all
 * written: the caller then builds the whole index.
 */
async function keptFiles(base: string): Promise<string[] | null> {
  while (recordStageWriting(base)) {
    const parts = recordFilesAt(base);
    if (parts) return parts;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return recordFilesAt(base);
}

function openIndex(files: string[]): Omit<RecordIndex, 'file' | 'buildSeconds'> {
  const f = openRecordFiles(files);
  return { records: f.records, lexical: f.lexical, bytes: f.bytes, parts: f.files };
}

/**
 * Removes the data folder's records indexes of other keys than `kept`'s (older corpus versions or code), and what
 * builds of processes no longer running left unfinished (`records-….bin.<pid>.….partial` and its spill files:
 * hundreds of MB at ten times the shared corpus). `kept`'s own files stay, whole or in parts (a stage may be writing
 * them), except parts beside its whole file, which no reader chooses (recordFilesAt).
 */
export function removeRecordFilesExcept(kept: string) {
  const dir = path.dirname(kept);
  const stem = path.basename(kept).replace(/\.bin$/, '.');
  const whole = fs.existsSync(kept);
  for (const f of fs.readdirSync(dir)) {
    if (!f.startsWith('records-')) continue;
    const builder = /\.bin\.(\d+)\.[a-z0-9]+\.partial/.exec(f);
    const stale = builder ? !processRunning(Number(builder[1])) : !f.startsWith(stem) || (whole && /\.part-\d+-of-\d+\.bin$/.test(f));
    if (stale) fs.rmSync(path.join(dir, f), { force: true });
  }
}
