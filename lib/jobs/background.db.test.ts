import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { getRetrievalService } from '../serving/app-service.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../scripts/test-support/fixture-corpus.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { warmOnStart } from './background.ts';
import { warmingIndexes } from './warming.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await ingestFixtureCorpus(db);
});
afterAll(async () => {
  await db?.close();
});

describe('the server start on a corpus', () => {
  it('builds and keeps the indexes in the background, and says so while it does', async () => {
    const dir = tempDir();
    const cfg = readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' });
    warmOnStart(db, cfg);
    expect(warmingIndexes()).toBe(true);
    await expect.poll(warmingIndexes, { timeout: 60_000 }).toBe(false);
    // The app's service holds the warm index and its graph; both are kept in the data folder for the next start.
    const index = await getRetrievalService(db, cfg).index();
    expect(index.paragraphs.size).toBeGreaterThan(0);
    expect((await index.graph.get()).tuples.size).toBeGreaterThan(0);
    const kept = () => (fs.existsSync(path.join(dir, 'index')) ? fs.readdirSync(path.join(dir, 'index')).filter((f) => f.endsWith('.v8')) : []);
    await expect.poll(() => kept().length, { timeout: 10_000 }).toBe(2);
  });
});
