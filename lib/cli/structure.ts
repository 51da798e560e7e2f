import cliProgress from 'cli-progress';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { structureCounts } from '../db/structure.ts';
import { runStructuring } from '../structure/pipeline.ts';
import { configuredExtractor } from '../structurers/select.ts';

/** npm run structure: structure new or changed paragraphs and rebuild the affected per-paper records. */
async function main() {
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  // Run by hand, the trained heads review every paragraph they would (an import reviews a budget of them).
  const { extractor, concurrency } = configuredExtractor(db, cfg, { reviewAll: true });
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const total = (await structureCounts(db)).paragraphs;
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        { format: ' {bar} {value}/{total} paragraphs | {structured} structured, {papers} paper records', clearOnComplete: true },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(total, 0, { structured: 0, papers: 0 });
  try {
    const report = await runStructuring(db, {
      extractor,
      concurrency,
      signal: controller.signal,
      onProgress: (p) => bar?.update(p.paragraphsSeen, { structured: p.paragraphsStructured, papers: p.papersRecorded }),
    });
    bar?.stop();
    const c = await structureCounts(db);
    console.log(
      `structured ${report.paragraphsStructured} of ${report.paragraphsSeen} paragraphs and rebuilt ${report.papersRecorded} paper records in ${report.elapsedSeconds.toFixed(1)} s (${report.extractor})`,
    );
    console.log(
      `database: ${c.structured}/${c.paragraphs} paragraphs structured, ${c.synthesis} synthesis paragraphs, ${c.mentions} mentions, ${c.records} paper records`,
    );
    if (report.failures) {
      console.log(`${report.failures} paragraphs could not be structured and were left for the next run:`);
      for (const f of report.failureSamples) console.log(`  ${f}`);
      process.exitCode = 1;
    }
    if (controller.signal.aborted) process.exitCode = 130;
  } finally {
    bar?.stop();
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
