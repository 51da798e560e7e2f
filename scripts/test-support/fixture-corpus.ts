import { type AssayConfig, readConfig } from '../../lib/config.ts';
import type { Database } from '../../lib/db/database.ts';
import { runIngest } from '../../lib/jobs/import-job.ts';
import { corpusPapers, recipeRows, tempDir, writeCorpusJsonl, writeRecordsJsonl } from './fixtures.ts';

/** Imports the invented fixture corpus (three papers and the sol-gel recipes) as the CLI would. */
export async function ingestFixtureCorpus(db: Database, cfg: AssayConfig = readConfig({})): Promise<void> {
  const dir = tempDir();
  await runIngest(db, cfg, [writeCorpusJsonl(dir, 'papers.jsonl', corpusPapers), writeRecordsJsonl(dir, 'sol-gel.jsonl', recipeRows)], { trigger: 'cli' });
}
