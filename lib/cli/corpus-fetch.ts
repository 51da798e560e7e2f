import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { downloadAndIngestStarterCorpus } from '../corpus/starter.ts';

/** npm run corpus:fetch [-- PMC123 PMC456 ...]: download open-access JATS from Europe PMC and ingest it. */
async function main() {
  const ids = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  try {
    let last = '';
    const result = await downloadAndIngestStarterCorpus(db, cfg, {
      ids,
      onStatus: (msg) => {
        if (msg !== last) process.stderr.write(`\r${msg.padEnd(60)}`);
        last = msg;
      },
    });
    process.stderr.write('\n');
    if (result.status === 'failed' && 'message' in result) {
      console.error(`corpus download failed: ${result.message}`);
      process.exitCode = 1;
      return;
    }
    const r = result as Exclude<typeof result, { message: string }>;
    console.log(`starter corpus: ${r.counters.papersAdded} papers added, ${r.counters.papersUnchanged} already present, ${r.errors} errors`);
    console.log(`database now holds ${r.papers} papers, ${r.paragraphs} paragraphs, ${r.records} records`);
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
