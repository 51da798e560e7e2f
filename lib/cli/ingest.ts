import fs from 'node:fs';
import cliProgress from 'cli-progress';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { type IngestProgress, runIngest } from '../jobs/import-job.ts';

const usage = `usage: npm run ingest -- [--json <out>] <files or folders...>

Imports papers (corpus JSONL, TEI XML, JATS XML, PDF, text, Markdown; .gz accepted) and structured records
(recipe / experiment JSONL) into the configured database. Re-running is safe: nothing is duplicated.`;

async function main() {
  const args = process.argv.slice(2);
  let jsonOut: string | null = null;
  const inputs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--json') jsonOut = args[++i] ?? null;
    else if (args[i] === '-h' || args[i] === '--help') return void console.log(usage);
    else inputs.push(args[i]);
  }
  if (inputs.length === 0 || (args.includes('--json') && !jsonOut)) {
    console.error(usage);
    process.exit(2);
  }
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  const controller = new AbortController();
  process.once('SIGINT', () => {
    console.error('\nstopping after the current paper (press Ctrl-C again to force)…');
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
  process.once('SIGTERM', () => controller.abort());

  const tty = process.stderr.isTTY;
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          format: ' {bar} {value}/{total} files | {papers} papers, {records} records, {errors} errors | {rate} items/s | {file}',
          hideCursor: true,
          clearOnComplete: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let lastLine = 0;
  let started = false;
  const onProgress = (p: IngestProgress) => {
    const payload = {
      papers: p.papersAdded + p.papersUpdated + p.papersUnchanged,
      records: p.recordsAdded + p.recordsUnchanged,
      errors: p.errorCount,
      rate: p.elapsedSeconds > 0 ? Math.round(p.items / p.elapsedSeconds) : 0,
      file: (p.currentFile ?? '').split('/').slice(-2).join('/'),
    };
    if (bar) {
      if (!started) {
        bar.start(Math.max(p.filesTotal, 1), p.filesDone, payload);
        started = true;
      }
      bar.setTotal(Math.max(p.filesTotal, 1));
      bar.update(p.filesDone, payload);
    } else if (Date.now() - lastLine > 2000) {
      lastLine = Date.now();
      console.error(
        `progress: ${p.filesDone}/${p.filesTotal} files, ${payload.papers} papers, ${payload.records} records, ${payload.errors} errors, ${payload.rate} items/s ${payload.file}`,
      );
    }
  };

  try {
    const report = await runIngest(db, cfg, inputs, {
      trigger: 'cli',
      signal: controller.signal,
      onProgress,
      maxItemBytes: cfg.maxLineBytes,
      recordsIndex: true,
    });
    bar?.stop();
    const c = report.counters;
    console.log(
      `ingest ${report.status} in ${report.seconds.toFixed(1)} s: import ${report.ingestSeconds.toFixed(1)} s, structuring ${report.structureSeconds.toFixed(1)} s, graph ${report.graphSeconds.toFixed(1)} s, records index ${report.recordsSeconds.toFixed(1)} s (run ${report.runId}, database: ${db.location})`,
    );
    console.log(`  files:      ${c.filesDone}/${c.filesTotal}`);
    console.log(`  papers:     ${c.papersAdded} added, ${c.papersUpdated} updated, ${c.papersUnchanged} unchanged`);
    console.log(`  paragraphs: ${c.paragraphs} written`);
    console.log(`  records:    ${c.recordsAdded} added, ${c.recordsUnchanged} unchanged`);
    console.log(`  errors:     ${c.errorCount}`);
    for (const e of report.errorSamples.slice(0, 20)) console.log(`    ${e.file}${e.location ? ` (${e.location})` : ''}: ${e.reason}`);
    if (report.errors > 20) console.log(`    … ${report.errors - 20} more (see the run on /import)`);
    console.log(`  database now holds ${report.papers} papers, ${report.paragraphs} paragraphs, ${report.records} records`);
    if (jsonOut) {
      const summary = {
        papers: report.papers,
        paragraphs: report.paragraphs,
        records: report.records,
        errors: report.errors,
        seconds: Number(report.seconds.toFixed(3)),
      };
      fs.writeFileSync(jsonOut, `${JSON.stringify(summary, null, 2)}\n`);
    }
    process.exitCode = report.status === 'failed' ? 1 : report.status === 'interrupted' ? 130 : 0;
  } finally {
    bar?.stop();
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
