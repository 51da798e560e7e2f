import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../scripts/test-support/database.ts';
import { tempDir } from '../../../scripts/test-support/fixtures.ts';
import { createRun } from '../../db/ingest-runs.ts';
import { detectReader } from '../detect.ts';
import { readWhole } from '../files.ts';
import { importFiles } from '../pipeline.ts';
import { InputError, type Reader } from '../types.ts';
import { finishPaper } from './paper.ts';
import { importFormats, READERS } from './registry.ts';

/**
 * A toy import format, written the way a new reader is: one object that names itself, says which files are its own
 * and reads them. Tab-separated abstracts under a `doi<TAB>title<TAB>abstract` header; adding it to the product would
 * be this file in lib/ingest/readers/ and one line in registry.ts.
 */
const HEADER = 'doi\ttitle\tabstract';
const abstractsTsvReader: Reader = {
  name: 'abstracts-tsv',
  label: 'abstract tables (TSV)',
  extensions: ['.tsv'],
  detect: (head) => head.text.startsWith(HEADER) || null,
  async *read(file, ctx) {
    const lines = (await readWhole(file.path, ctx.maxItemBytes)).toString('utf8').split('\n').slice(1);
    if (!lines.some((l) => l.trim())) throw new InputError('no abstracts under the header');
    for (const [i, line] of lines.entries()) {
      if (!line.trim()) continue;
      const [doi, title, abstract] = line.split('\t');
      if (!abstract) {
        yield { type: 'error', location: `line ${i + 2}`, reason: 'expected three tab-separated fields' };
        continue;
      }
      const paragraphs = [{ text: abstract, section: 'Abstract', kind: 'abstract' as const }];
      yield { type: 'paper', location: `line ${i + 2}`, paper: finishPaper({ format: 'abstracts-tsv', source: 'abstracts-tsv', doi, title, paragraphs }) };
    }
  },
};

function tsvFile(): string {
  const file = path.join(tempDir('toy-format'), 'abstracts.tsv');
  fs.writeFileSync(
    file,
    [
      HEADER,
      '10.1000/toy.1\tA toy paper on LiFePO4\tLiFePO4 was made by a sol-gel route and calcined at 700 °C for 10 h.',
      'not enough fields',
      '10.1000/toy.2\tAnother toy paper\tMgB2 wires reached a critical temperature of 39 K.',
    ].join('\n'),
  );
  return file;
}

describe('a new import format is one reader plus one registry line', () => {
  it('is detected by what it declares, listed for the import screen, and imported like any other', async () => {
    const readers = [...READERS, abstractsTsvReader];
    const file = tsvFile();
    // Not one of the product's formats: a .tsv is skipped without it …
    expect(await detectReader(file, 'abstracts.tsv')).toMatchObject({ skip: expect.stringMatching(/unrecognised file type "tsv"/) });
    // … and read with it.
    expect(await detectReader(file, 'abstracts.tsv', readers)).toMatchObject({ reader: { name: 'abstracts-tsv' } });
    expect(importFormats(readers)).toMatchObject({ labels: expect.arrayContaining(['abstract tables (TSV)']), accept: expect.stringContaining('.tsv') });
    expect(importFormats().accept).not.toContain('.tsv');

    const db = await openTestDatabase();
    try {
      const run = await createRun(db.prisma, 'cli', [file]);
      const result = await importFiles(db, run.id, [file], { readers });
      expect(result.status).toBe('succeeded');
      const papers = await db.prisma.paper.findMany({ orderBy: { doi: 'asc' }, select: { doi: true, format: true, paragraphs: { select: { kind: true } } } });
      expect(papers).toEqual([
        { doi: '10.1000/toy.1', format: 'abstracts-tsv', paragraphs: [{ kind: 'abstract' }] },
        { doi: '10.1000/toy.2', format: 'abstracts-tsv', paragraphs: [{ kind: 'abstract' }] },
      ]);
      const errors = await db.prisma.ingestError.findMany({ where: { runId: run.id }, select: { location: true, reason: true } });
      expect(errors).toEqual([{ location: 'line 3', reason: 'expected three tab-separated fields' }]);
    } finally {
      await db.close();
    }
  });
});
