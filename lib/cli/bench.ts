import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPgliteDatabase } from '../db/pglite.ts';
import { applyPendingMigrations } from '../db/migrations.ts';
import type { Database } from '../db/database.ts';
import { openScratchPostgres } from '../db/scratch-postgres.ts';
import { runIngest } from '../ingest/pipeline.ts';
import { sharedDataDir } from '../testing/shared-data.ts';

const usage = `usage: npm run bench -- ingest [--postgres <admin url>] [path ...]

ingest: imports the given files/folders (default ../shared/data) into a fresh database (a new embedded PGlite in
a temporary folder, or a throw-away database on the PostgreSQL server given), then imports them again, and
prints seconds, throughput and peak memory of both runs.`;

async function benchIngest(args: string[]) {
  let pgUrl: string | null = null;
  const inputs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--postgres') pgUrl = args[++i];
    else inputs.push(args[i]);
  }
  if (inputs.length === 0) {
    const shared = sharedDataDir();
    if (!shared) throw new Error('no paths given and ../shared/data (or ASSAY_SHARED_DATA) is absent');
    inputs.push(shared);
  }
  for (const p of inputs) if (!fs.existsSync(p)) throw new Error(`no such path: ${p}`);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-bench-'));
  const t0 = performance.now();
  let db: Database;
  if (pgUrl) {
    db = await openScratchPostgres(pgUrl);
  } else {
    db = await openPgliteDatabase(tmp);
  }
  await applyPendingMigrations(db);
  const openSeconds = (performance.now() - t0) / 1000;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  try {
    const first = await runIngest(db, inputs, { trigger: 'cli' });
    const firstPeak = peakRss;
    const second = await runIngest(db, inputs, { trigger: 'cli' });
    const mb = (b: number) => (b / 1048576).toFixed(0);
    const rows = [
      ['database', db.kind === 'pglite' ? 'PGlite (embedded, fresh)' : 'PostgreSQL (fresh database)'],
      ['open + migrate', `${openSeconds.toFixed(1)} s`],
      ['first ingest', `${first.seconds.toFixed(1)} s = import ${first.ingestSeconds.toFixed(1)} s + structuring ${first.structureSeconds.toFixed(1)} s  (${first.papers} papers, ${first.paragraphs} paragraphs, ${first.records} records, ${first.errors} errors)`],
      ['  throughput', `${Math.round((first.counters.papersAdded + first.counters.recordsAdded) / first.ingestSeconds)} papers+records/s imported`],
      ['  peak RSS', `${mb(firstPeak)} MB`],
      ['re-ingest', `${second.seconds.toFixed(1)} s  (${second.counters.papersAdded} added, ${second.counters.papersUpdated} updated, ${second.counters.papersUnchanged} unchanged papers; ${second.counters.recordsAdded} added records)`],
      ['  peak RSS', `${mb(peakRss)} MB`],
    ];
    for (const [k, v] of rows) console.log(`${k.padEnd(16)} ${v}`);
    console.log(JSON.stringify({ database: db.kind, first: { seconds: first.seconds, ingestSeconds: first.ingestSeconds, structureSeconds: first.structureSeconds, papers: first.papers, paragraphs: first.paragraphs, records: first.records, errors: first.errors, peakRssMb: Number(mb(firstPeak)) }, reingest: { seconds: second.seconds, ...second.counters } }));
  } finally {
    clearInterval(sampler);
    await db.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main() {
  const [what, ...rest] = process.argv.slice(2);
  if (what === 'ingest') return benchIngest(rest);
  console.error(usage);
  process.exit(2);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
