import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { metadataCounts } from '../db/paper-metadata.ts';
import { MetadataOffline, runMetadata } from '../jobs/metadata.ts';
import { cliOptions } from './options.ts';
import { entityLinkCounts } from '../db/entity-links.ts';
import { LinkingOffline, runEntityLinking } from '../jobs/entity-links.ts';

const usage = `usage: npm run enrich -- metadata [--refresh]
       npm run enrich -- links [--limit n]

Asks Crossref and OpenAlex (ASSAY_CROSSREF_URL, ASSAY_OPENALEX_URL; ASSAY_CONTACT_EMAIL joins their polite pool) for
the metadata of every paper with a DOI whose metadata is missing, failed or a month old (--refresh: every paper):
authors with ORCID, venue, year, licence, citation count, retraction and correction notices. Offline it stops after
three papers and says so; nothing stored is lost.

links: looks up the busiest graph entities not yet asked about (materials, properties, methods; 300 per run) on
Wikidata (ASSAY_WIKIDATA_URL) and links each to the item that is the same thing, or to nothing.`;

async function main() {
  const [what, ...rest] = process.argv.slice(2);
  if (what !== 'metadata' && what !== 'links') {
    console.error(usage);
    process.exit(2);
  }
  const opt = cliOptions(rest, ['limit'], ['refresh']);
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  if (what === 'links') {
    try {
      const done = await runEntityLinking(db, cfg, { limit: opt('limit') ? Number(opt('limit')) : undefined, signal: controller.signal });
      console.log(`entity links: ${done.linked} linked to Wikidata, ${done.none} without a matching item, ${done.failed} failed (of ${done.total} asked)`);
    } catch (error) {
      if (!(error instanceof LinkingOffline)) throw error;
      console.error(error.message);
      process.exitCode = 1;
    } finally {
      console.log(`database: ${JSON.stringify(await entityLinkCounts(db))}`);
      await db.close();
    }
    return;
  }
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
