import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { runIngest } from '../jobs/import-job.ts';
import { readConfig } from '../config.ts';
import { openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';
import { sharedDataDir } from '../common/shared-data.ts';

const testConfig = readConfig({});

// The real development corpus: 1,799 papers, 8,943 paragraphs and 46,213 structured records, plus the TEI
// samples (the same papers again, recognised by their text), gold sets and questions (not ingestible, skipped).
const data = sharedDataDir();

describe.skipIf(!data)(`shared data folder (${testDatabaseKind()})`, () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('ingests the whole folder to the published counts with no errors, then re-ingests without change', async () => {
    const first = await runIngest(db, testConfig, [data!], { trigger: 'cli' });
    expect(first).toMatchObject({ status: 'succeeded', papers: 1799, paragraphs: 8943, records: 46213, errors: 0 });
    expect(first.counters.papersUnchanged).toBe(10); // the ten TEI samples are corpus papers
    const linked = await db.prisma.record.count({ where: { paperId: { not: null } } });
    expect(linked).toBeGreaterThan(0);
    const second = await runIngest(db, testConfig, [data!], { trigger: 'cli' });
    expect(second).toMatchObject({ status: 'succeeded', papers: 1799, paragraphs: 8943, records: 46213, errors: 0 });
    expect(second.counters).toMatchObject({ papersAdded: 0, papersUpdated: 0, recordsAdded: 0, paragraphs: 0 });
  }, 300_000);
});

if (!data) console.warn('skipping the shared-data ingest test: ../shared/data is absent (set ASSAY_SHARED_DATA)');
