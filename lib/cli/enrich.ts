import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { metadataCounts } from '../db/paper-metadata.ts';
import { MetadataOffline, runMetadata } from '../jobs/metadata.ts';
import { cliOptions } from './options.ts';
import { entityLinkCounts } from '../db/entity-links.ts';
import { LinkingOffline, runEntityLinking } from '../jobs/entity-links.ts';
import { lookForPapers, type PaperCandidate } from '../corpus/paper-search.ts';
import { importFoundPapers, paperSearchReport } from '../corpus/found-imports.ts';
import { getPaperSearch } from '../db/paper-searches.ts';
import { getRun } from '../db/ingest-runs.ts';
import { licenceText } from '../scholarly/licences.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';

const usage = `usage: npm run enrich -- metadata [--refresh]
       npm run enrich -- links [--limit n]
       npm run enrich -- papers "<question>" [--import PMC1,PMC2]

Asks Crossref and OpenAlex (ASSAY_CROSSREF_URL, ASSAY_OPENALEX_URL; ASSAY_CONTACT_EMAIL joins their polite pool) for
the metadata of every paper with a DOI whose metadata is missing, failed or a month old (--refresh: every paper):
authors with ORCID, venue, year, licence, citation count, retraction and correction notices. Offline it stops after
three papers and says so; nothing stored is lost.

links: looks up the busiest graph entities not yet asked about (materials, properties, methods; 300 per run) on
Wikidata (ASSAY_WIKIDATA_URL) and links each to the item that is the same thing, or to nothing.

papers: searches OpenAlex and Europe PMC (ASSAY_OPENALEX_URL, ASSAY_EUROPEPMC_URL) for open-access papers on the
question and lists them with why each may help and whether it can be imported (ASSAY_IMPORT_LICENCES); --import
downloads the chosen ones through the import job and reports what validation kept out of the graph or flagged.`;

/** \`papers\`: the search, then (with --import) the import and its validation, as the /found page shows them. */
async function papers(db: Database, cfg: AssayConfig, question: string, chosen: string[]) {
  const id = await lookForPapers(db, cfg, { question, answerId: null, createdBy: 'cli' });
  const search = (await getPaperSearch<PaperCandidate>(db, id))!;
  for (const t of search.trace) if (t.detail.failed) console.error(`${t.step}: ${String(t.detail.message)}`);
  console.log(`search ${id} for "${search.query}": ${search.candidates.length} open-access papers`);
  for (const c of search.candidates)
    console.log(
      `- ${c.pmcid ?? c.doi ?? c.key}  ${c.title} (${[c.venue, c.year].filter(Boolean).join(', ')}; ${licenceText(c.licence)})\n    may help: ${c.why.join('; ')}\n    ${c.importable ? 'can be imported' : `not imported: ${c.blocked}`}`,
    );
  if (search.status === 'failed') process.exitCode = 1;
  if (chosen.length === 0) return;
  const { runId } = await importFoundPapers(db, cfg, id, chosen, 'cli');
  let run = await getRun(db.prisma, runId, 0);
  while (run && !['succeeded', 'failed'].includes(run.status)) {
    await new Promise((r) => setTimeout(r, 500));
    run = await getRun(db.prisma, runId, 0);
  }
  const report = (await paperSearchReport(db, id))!;
  console.log(`import ${runId}: ${report.run?.status}${report.run?.message ? ` — ${report.run.message}` : ''}`);
  for (const e of report.run?.errors ?? []) console.log(`  ${e.file}: ${e.reason}`);
  for (const p of report.papers) {
    console.log(
      `  ${p.pmcid}: ${p.paperId ? `${p.joined} tuples joined the graph, ${p.rejected.length} rejected, ${p.conflicts.length} conflicts flagged` : 'not imported'}`,
    );
    for (const r of p.rejected) console.log(`    rejected (${r.rule}): ${r.statement} — ${r.message}`);
    for (const c of p.conflicts) console.log(`    conflict: ${c.statement} — ${c.conflictsWith.map((w) => w.statement).join('; ')}`);
  }
  if (report.search.status !== 'imported') process.exitCode = 1;
}

async function main() {
  const [what, ...rest] = process.argv.slice(2);
  if (what !== 'metadata' && what !== 'links' && what !== 'papers') {
    console.error(usage);
    process.exit(2);
  }
  // papers: the question is the words before the options.
  const firstOption = rest.findIndex((a) => a.startsWith('--'));
  const words = what !== 'papers' ? [] : firstOption === -1 ? rest : rest.slice(0, firstOption);
  const opt = cliOptions(rest.slice(words.length), ['limit', 'import'], ['refresh']);
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  if (what === 'papers') {
    const question = words.join(' ');
    if (question.trim().length < 3) {
      console.error(usage);
      process.exit(2);
    }
    try {
      await papers(db, cfg, question, (opt('import') ?? '').split(',').filter(Boolean));
    } finally {
      await db.close();
    }
    return;
  }
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
