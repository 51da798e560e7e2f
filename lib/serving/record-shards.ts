import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sourceHash } from '../common/source-hash.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { corpusVersion, paperDois, recordRangeBounds, recordsAfter } from '../db/retrieval-corpus.ts';
import { defineJob, startJob } from '../queue/queue.ts';
import { runStageShards } from '../queue/stage-shards.ts';
import { recordsKey } from '../retrieval/index-snapshot.ts';
import { paperByDoiOf, removeRecordFilesExcept, writeRecordFile } from '../retrieval/record-index.ts';
import { mergeRecordFiles } from '../retrieval/record-merge.ts';
import { recordFilesAt, recordPartFile, recordStageMarker } from '../retrieval/record-set.ts';
import { fileOf } from '../retrieval/snapshot-files.ts';
import { snapshotDirOf } from './prestart.ts';

/**
 * The records index as shards (lib/queue/stage-shards.ts): the import job's records stage cuts the records, in id
 * order, into ranges of about `RECORD_SHARD_RECORDS`, and any app process — the server, every `npm run worker` on the
 * same PostgreSQL and data folder — writes one range's part of the index into the data folder
 * (`records-<key>.part-<i>-of-<n>.bin`, record-set.ts), once each. A part is written aside and renamed into place, so
 * a process killed mid-shard leaves no part, and whoever takes the shard over writes it whole. Once all are written,
 * the stage's coordinator merges them into the one file a single build writes (record-merge.ts: the same bytes), and
 * removes them; a question meanwhile reads the parts as one index that ranks exactly as that file (record-set.ts).
 * Without them (an import before this stage existed, a corpus changed since) the first records question builds the
 * index whole, as before.
 */
export interface RecordShard {
  /** The key the index is kept under (of the corpus version and the code: recordsKey in index-snapshot.ts). */
  key: string;
  /** The corpus version the key is of: a process that finds the corpus changed since writes nothing. */
  version: string;
  /** The code's hash: a part written by other code could rank otherwise, so a worker running it refuses the shard. */
  code: string;
  part: number;
  of: number;
  /** The range: the records after this id (null: from the first) up to that one (null: to the last). */
  after: string | null;
  upTo: string | null;
}

export interface RecordShardResult {
  records: number;
  seconds: number;
  /** Why nothing was written (the part was there already, the corpus changed). */
  skipped?: string;
}

/** About 7 s of one core at ten times the shared corpus (462,000 records: 12 parts; the shared one: 2). */
export const RECORD_SHARD_RECORDS = 40_000;

export const recordShardJob = defineJob<RecordShard, RecordShardResult>('records-shard', async ({ db, cfg, signal, report }, shard) => {
  const t0 = performance.now();
  if (sourceHash() !== shard.code)
    throw new Error('this process runs other code than the one that queued the records index: run the same commit on every worker');
  if ((await corpusVersion(db)) !== shard.version) {
    report({ records: 0, seconds: 0, skipped: 'the corpus changed after the shard was queued' });
    return;
  }
  const base = fileOf(snapshotDirOf(cfg), 'records', shard.key);
  const file = recordPartFile(base, shard.part, shard.of);
  // Written already, or merged already (a shard taken over from a process that had been thought dead).
  if (fs.existsSync(file) || fs.existsSync(base)) {
    report({ records: 0, seconds: 0, skipped: 'the part was written already' });
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const paperByDoi = paperByDoiOf(await paperDois(db));
  let records = 0;
  const loadPage = async (after: string | null) => {
    const rows = await recordsAfter(db, after ?? shard.after, shard.upTo);
    records += rows.length;
    return rows;
  };
  await writeRecordFile(file, loadPage, paperByDoi, signal);
  report({ records, seconds: Math.round((performance.now() - t0) / 100) / 10 });
});

export interface RecordStageReport {
  /** Parts of the index, and how many of them other processes wrote. */
  parts: number;
  elsewhere: number;
  records: number;
  failed: string[];
  interrupted: boolean;
  /** Of `seconds`, the merge of the parts into one file. */
  mergeSeconds?: number;
  /** Why the stage wrote nothing (no records, the index kept already, snapshots off). */
  skipped?: string;
  seconds: number;
}

/** The import job's records stage: the records index of the corpus as it now is, written as shards (see above). */
export async function buildRecordIndexInShards(
  db: Database,
  cfg: AssayConfig,
  opts: { runId: string; signal?: AbortSignal; perShard?: number; onProgress?: (line: string) => Promise<void> | void },
): Promise<RecordStageReport> {
  const t0 = performance.now();
  const version = await corpusVersion(db);
  const key = recordsKey(version);
  const code = sourceHash();
  const report = (r: Partial<RecordStageReport>): RecordStageReport => ({
    parts: 0,
    elsewhere: 0,
    records: 0,
    failed: [],
    interrupted: false,
    ...r,
    seconds: (performance.now() - t0) / 1000,
  });
  if (!key || !code) return report({ skipped: 'the code cannot be hashed, so no index is kept' });
  const base = fileOf(snapshotDirOf(cfg), 'records', key);
  if (recordFilesAt(base)) return report({ skipped: 'the records index of this corpus is kept already' });
  // Touched while the stage runs: a first records question meanwhile waits for the parts (record-index.ts).
  const marker = recordStageMarker(base);
  fs.mkdirSync(path.dirname(base), { recursive: true });
  fs.writeFileSync(marker, `${os.hostname()}:${process.pid}\n`);
  const touch = setInterval(() => {
    const now = new Date();
    fs.promises.utimes(marker, now, now).catch(() => {});
  }, 10_000);
  touch.unref();
  try {
    const bounds = await recordRangeBounds(db, opts.perShard ?? RECORD_SHARD_RECORDS);
    const of = bounds.length + 1;
    const shards = Array.from({ length: of }, (_, i) => ({
      // Of this key: a resumed run finds its shards, and a run of other code or another corpus has its own.
      id: `records:${opts.runId}:${key.slice(0, 12)}:${i + 1}`,
      label: `writing the records index, part ${i + 1} of ${of}`,
      input: { key, version, code, part: i + 1, of, after: bounds[i - 1] ?? null, upTo: bounds[i] ?? null },
    }));
    const outcome = await runStageShards(db, cfg, recordShardJob, shards, {
      signal: opts.signal,
      onProgress: (p) =>
        opts.onProgress?.(`writing the records index: ${p.ended} of ${p.total} parts done${p.elsewhere ? ` (${p.elsewhere} by other workers)` : ''}`),
    });
    const failed = outcome.failed.map((f) => `${f.id}: ${f.message}`);
    // A part another process wrote where this one does not see it (a worker given another data folder) is written here:
    // this process's searchers read this folder.
    const local: string[] = [];
    if (!outcome.interrupted && !recordFilesAt(base))
      for (const shard of shards) {
        if (fs.existsSync(recordPartFile(base, shard.input.part, of))) continue;
        const signal = opts.signal ?? new AbortController().signal;
        try {
          await recordShardJob.run({ db, cfg, id: shard.id, attempt: 1, signal, report: () => {} }, shard.input);
          local.push(shard.id);
        } catch (error) {
          failed.push(`${shard.id}: ${(error as Error).message}`);
        }
      }
    // The parts merged into the file a single build writes, which a question then reads once per term rather than
    // once per part (record-merge.ts); the indexes of older corpus versions and code go once this one is whole.
    const parts = recordFilesAt(base);
    let mergeSeconds = 0;
    if (parts && parts[0] !== base && !opts.signal?.aborted) {
      const m0 = performance.now();
      if (parts.length === 1) fs.renameSync(parts[0], base);
      else await mergeRecordFiles(parts, base);
      for (const p of parts) fs.rmSync(p, { force: true });
      mergeSeconds = (performance.now() - m0) / 1000;
    }
    if (recordFilesAt(base)) removeRecordFilesExcept(base);
    return report({
      mergeSeconds,
      parts: of,
      elsewhere: outcome.done.filter((d) => !d.here && !local.includes(d.id)).length,
      records: outcome.done.reduce((n, d) => n + (d.progress?.records ?? 0), 0),
      failed,
      interrupted: outcome.interrupted,
    });
  } finally {
    clearInterval(touch);
    fs.rmSync(marker, { force: true });
  }
}

/**
 * The records stage as a job of its own, for a start whose corpus has no records index kept for this code (an
 * upgrade): queued by `queueRecordIndexIfMissing`, run by whichever process takes it, stopped and taken up again as
 * every job is.
 */
export const recordIndexJob = defineJob<{ runId: string }, RecordStageReport>('records-index', async ({ db, cfg, signal, report }, { runId }) => {
  const r = await buildRecordIndexInShards(db, cfg, { runId, signal });
  report(r);
  if (!r.skipped && !r.interrupted)
    console.log(
      `[assay] records index written in ${r.seconds.toFixed(1)} s as ${r.parts} parts${r.elsewhere ? ` (${r.elsewhere} by other workers)` : ''}${r.failed.length ? `; ${r.failed.length} failed (${r.failed[0]}), so the first records question builds it` : ''}`,
    );
});

/** Queues the records stage when the index of the corpus as it is now is not kept for this code; whether it did. */
export async function queueRecordIndexIfMissing(db: Database, cfg: AssayConfig): Promise<boolean> {
  const key = recordsKey(await corpusVersion(db));
  if (!key || recordFilesAt(fileOf(snapshotDirOf(cfg), 'records', key))) return false;
  await startJob(
    db,
    cfg,
    recordIndexJob,
    { label: 'writing the records index' },
    () => `records-index:${key.slice(0, 12)}`,
    () => ({ runId: 'start' }),
  );
  return true;
}
