import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { runIngest } from '../../jobs/import-job.ts';
import { createRetrievalService } from '../../serving/retrieval-service.ts';
import { openTestDatabase } from '../../../scripts/test-support/database.ts';
import { tempDir } from '../../../scripts/test-support/fixtures.ts';
import { makeTablePdf } from '../../../scripts/test-support/table-fixtures.ts';

/**
 * A PDF whose values live only in a table, imported with ASSAY_PDF_TABLES=tabula: its cells become graph tuples with
 * the column's unit and the row's conditions, and a value question is answered from the cell. Skipped without Java.
 */
const noJava = !!spawnSync('java', ['-version']).error;
let db: Database;
const cfg = () => readConfig({ ASSAY_DATA_DIR: tempDir(), ASSAY_LOCAL_EMBEDDER: 'ngram', ASSAY_PDF_TABLES: 'tabula' });

beforeAll(async () => {
  if (noJava) return;
  db = await openTestDatabase();
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'pellets.pdf'), await makeTablePdf());
  await runIngest(db, cfg(), [dir], { trigger: 'cli' });
});
afterAll(async () => db?.close());

describe.skipIf(noJava)('a PDF table as evidence', () => {
  it('gives tuples from its cells and answers a value question from the cell', async () => {
    const tuples = await db.prisma.graphTuple.findMany({
      where: { relation: 'has_property', sentence: '0.0347 S/cm' },
      select: { value: true, unit: true, subject: { select: { label: true } }, object: { select: { key: true } } },
    });
    expect(tuples).toEqual([{ value: 0.0347, unit: 'S/cm', subject: { label: 'Ce0.8Sm0.2O2' }, object: { key: 'p:conductivity' } }]);
    const result = await createRetrievalService(db, cfg()).retrieve('What is the conductivity of Ce0.8Sm0.2O2?', 'hybrid');
    expect(result.value?.text).toBe('0.0347 S/cm');
    expect(result.abstention.abstain).toBe(false);
  });
});
