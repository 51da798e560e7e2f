import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { metadataCounts } from '../db/paper-metadata.ts';
import { MetadataOffline, runMetadata } from '../jobs/metadata.ts';
import { cliOptions } from './options.ts';

const usage = `usage: npm run enrich -- metadata [--refresh]

Asks Crossref and OpenAlex (ASSAY_CROSSREF_URL, ASSAY_OPENALEX_URL; ASSAY_CONTACT_EMAIL joins their polite pool) for
the metadata of every paper with a DOI whose metadata is missing, failed or a month old (--refresh: every paper):
authors with ORCID, venue, year, licence, citation count, retraction and correction notices. Offline it stops after
three papers and says so; nothing stored is lost.`;

async function main() {
  const [what, ...rest] = process.argv.slice(2);
  if (what !== 'metadata') {
    console.error(usage);
    process.exit(2);
  }
  const opt = cliOptions(rest, [], ['refresh']);
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  try {
    const done = await runMetadata(db, cfg, {
      refresh: opt('refresh') === 'true',
      signal: controller.signal,
      report: (p) => process.stderr.isTTY && process.stderr.write(`\r${p.done}/${p.total} papers: ${p.ok} fetched, ${p.notFound} unknown, ${p.failed} failed`),
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    console.log(`paper metadata: ${done.ok} fetched, ${done.notFound} unknown to Crossref and OpenAlex, ${done.failed} failed (of ${done.total} asked)`);
  } catch (error) {
    if (!(error instanceof MetadataOffline)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    console.log(`database: ${JSON.stringify(await metadataCounts(db))}`);
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
