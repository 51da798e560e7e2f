import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { getRun } from '../db/ingest-runs.ts';
import { runIngest } from '../jobs/import-job.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { readConfig } from '../config.ts';
import {
  corpusPapers,
  jatsXml,
  makePdf,
  recipeRows,
  solarchemRow,
  teiXml,
  tempDir,
  writeCorpusJsonl,
  writeRecordsJsonl,
} from '../../scripts/test-support/fixtures.ts';
import { databaseDigest, openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';

const testConfig = readConfig({});

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await db.prisma.ingestRun.deleteMany();
  await db.prisma.record.deleteMany();
  await db.prisma.paper.deleteMany();
});

/** A folder with one file of every format plus the structured records. */
async function libraryFolder(): Promise<string> {
  const dir = tempDir();
  writeCorpusJsonl(dir, 'papers.jsonl', corpusPapers, true);
  writeRecordsJsonl(dir, 'sol-gel.jsonl', recipeRows, true);
  writeRecordsJsonl(dir, 'solarchem-experiments.jsonl', [solarchemRow]);
  fs.writeFileSync(path.join(dir, 'a.tei.xml'), teiXml({ doi: '10.9999/demo.tei.1' }));
  fs.writeFileSync(path.join(dir, 'b.xml'), jatsXml());
  fs.writeFileSync(path.join(dir, 'c.pdf'), await makePdf());
  fs.writeFileSync(path.join(dir, 'd.md'), '# Notes on NiFe LDH\n\nNiFe LDH reached 10 mA cm⁻² at 1.48 V vs RHE.\n');
  fs.writeFileSync(path.join(dir, 'README.md'), '# not a paper');
  fs.writeFileSync(path.join(dir, 'questions.jsonl'), '{"question": "not ours"}\n');
  return dir;
}

describe(`ingestion pipeline (${testDatabaseKind()})`, () => {
  it('imports every format, links records to papers by DOI, and reports totals', async () => {
    const report = await runIngest(db, testConfig, [await libraryFolder()], { trigger: 'cli' });
    expect(report.status).toBe('succeeded');
    expect(report.errors).toBe(0);
    expect(report.papers).toBe(7); // 3 corpus + TEI + JATS + PDF + Markdown
    expect(report.records).toBe(3);
    expect(report.counters).toMatchObject({ papersAdded: 7, recordsAdded: 3, filesDone: 8, filesTotal: 8 });
    const battery = await db.prisma.paper.findUnique({ where: { doi: '10.9999/demo.battery.2019.002' }, include: { records: true, paragraphs: true } });
    expect(battery?.records.map((r) => r.kind)).toEqual(['sol-gel-recipe', 'sol-gel-recipe']);
    expect(battery?.paragraphs).toHaveLength(2);
    const solar = await db.prisma.record.findFirstOrThrow({ where: { kind: 'solarchem-experiment' } });
    expect(solar.paperId).toBeNull(); // its paper is not in the library
    expect(report.paragraphs).toBe(await db.prisma.paragraph.count());
  });

  it('changes nothing when the same files are ingested again', async () => {
    const dir = await libraryFolder();
    await runIngest(db, testConfig, [dir], { trigger: 'cli' });
    const before = await databaseDigest(db);
    const again = await runIngest(db, testConfig, [dir], { trigger: 'cli' });
    expect(again.counters).toMatchObject({ papersAdded: 0, papersUpdated: 0, papersUnchanged: 7, recordsAdded: 0, recordsUnchanged: 3, paragraphs: 0 });
    expect(await databaseDigest(db)).toEqual(before);
  });

  it('updates a paper whose text changed (same DOI) instead of duplicating it', async () => {
    const dir = tempDir();
    await runIngest(db, testConfig, [writeCorpusJsonl(dir, 'v1.jsonl')], { trigger: 'cli' });
    const changed = structuredClone(corpusPapers);
    changed[0].paragraphs[1].text = 'Powders were calcined at 1100 °C for 6 h.';
    changed[0].title = 'Corrected title';
    const report = await runIngest(db, testConfig, [writeCorpusJsonl(dir, 'v2.jsonl', changed)], { trigger: 'cli' });
    expect(report.counters).toMatchObject({ papersAdded: 0, papersUpdated: 1, papersUnchanged: 2, paragraphs: 3 });
    const paper = await db.prisma.paper.findUniqueOrThrow({ where: { doi: corpusPapers[0].doi! }, include: { paragraphs: { orderBy: { ordinal: 'asc' } } } });
    expect(paper.title).toBe('Corrected title');
    expect(paper.paragraphs[1].text).toBe('Powders were calcined at 1100 °C for 6 h.');
    expect(await db.prisma.paper.count()).toBe(3);
  });

  it('treats identical text from another channel as the same paper, filling in missing metadata only', async () => {
    const dir = tempDir();
    const noMeta = structuredClone(corpusPapers[0]);
    Object.assign(noMeta, { doi: null, journal: null, source: 'Other', id: 'other-1' });
    await runIngest(db, testConfig, [writeCorpusJsonl(dir, 'a.jsonl', [noMeta])], { trigger: 'cli' });
    const report = await runIngest(db, testConfig, [writeCorpusJsonl(dir, 'b.jsonl', [corpusPapers[0]])], { trigger: 'cli' });
    expect(report.counters).toMatchObject({ papersAdded: 0, papersUpdated: 1 });
    const only = await db.prisma.paper.findMany();
    expect(only).toHaveLength(1);
    expect(only[0]).toMatchObject({ doi: corpusPapers[0].doi, journal: corpusPapers[0].journal, source: 'Other' });
  });

  it('keeps papers with identical text but different DOIs apart', async () => {
    const dir = tempDir();
    const twin = { ...structuredClone(corpusPapers[0]), id: 'twin', doi: '10.9999/another' };
    await runIngest(db, testConfig, [writeCorpusJsonl(dir, 'a.jsonl', [corpusPapers[0], twin])], { trigger: 'cli' });
    expect(await db.prisma.paper.count()).toBe(2);
  });

  it('reports bad files and bad lines, ingests the rest, and keeps what was stored before', async () => {
    const good = tempDir();
    await runIngest(db, testConfig, [writeCorpusJsonl(good, 'good.jsonl', [corpusPapers[0]])], { trigger: 'cli' });
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'cut.xml'), teiXml().slice(0, 500));
    fs.writeFileSync(path.join(dir, 'junk.pdf'), Buffer.from('%PDF-1.7\n\u0000\u0001garbage'));
    fs.writeFileSync(path.join(dir, 'empty.txt'), '');
    fs.writeFileSync(path.join(dir, 'latin1.txt'), Buffer.from('Title\n\n800 \xb0C anneal', 'latin1'));
    fs.writeFileSync(path.join(dir, 'mixed.jsonl'), [JSON.stringify(corpusPapers[1]), '{oops', JSON.stringify(corpusPapers[2])].join('\n'));
    const report = await runIngest(db, testConfig, [dir, path.join(dir, 'missing.pdf')], { trigger: 'upload' });
    expect(report.status).toBe('succeeded');
    expect(report.papers).toBe(3);
    const run = await getRun(db.prisma, report.runId);
    const byFile = Object.fromEntries(run!.errors.map((e) => [path.basename(e.file), `${e.location ?? ''} ${e.reason}`]));
    expect(Object.keys(byFile).sort()).toEqual(['cut.xml', 'empty.txt', 'junk.pdf', 'latin1.txt', 'missing.pdf', 'mixed.jsonl']);
    expect(byFile['cut.xml']).toMatch(
      /line \d+, end of file malformed XML: the file ends before <TEI>, <teiHeader>, <fileDesc>, .*<persName>, <f> are closed \(truncated\?\)/,
    );
    expect(byFile['mixed.jsonl']).toMatch(/^line 2 invalid JSON/);
    expect(byFile['latin1.txt']).toMatch(/not valid UTF-8/);
    expect(byFile['missing.pdf']).toMatch(/no such file/);
    expect(run!.errorCount).toBe(6);
    expect(await db.prisma.paper.findUnique({ where: { doi: corpusPapers[0].doi! } })).not.toBeNull();
  });

  it('splits an over-long paragraph, refuses a huge text and an XML of millions of elements, and retrieval stays well', async () => {
    const dir = tempDir();
    const sentence = 'The YSZ electrolyte reached an ionic conductivity of 0.1 S cm−1 at 1000 °C. ';
    // 300,000 characters in one paragraph: imported, split at sentence ends.
    fs.writeFileSync(path.join(dir, 'long.txt'), `A long note on YSZ\n\n${sentence.repeat(4000)}`);
    // 5 MB in one line (the hostile upload of issue 14): refused for its file, with the limit named.
    fs.writeFileSync(path.join(dir, 'huge.txt'), `Huge\n\n${'conductivity of YSZ '.repeat(262_144)}`);
    // 2 million <p> in a small gzip: refused before a tree of them is built.
    fs.writeFileSync(path.join(dir, 'many.xml.gz'), zlib.gzipSync(`<article><body>${'<p>x</p>'.repeat(2_000_000)}</body></article>`));
    const t0 = performance.now();
    const report = await runIngest(db, testConfig, [dir], { trigger: 'cli' });
    const seconds = (performance.now() - t0) / 1000;
    expect(report.status).toBe('succeeded');
    expect(report.papers).toBe(1);
    const run = await getRun(db.prisma, report.runId);
    const byFile = Object.fromEntries(run!.errors.map((e) => [path.basename(e.file), e.reason]));
    expect(byFile).toEqual({
      'huge.txt': 'not imported: the paper holds 5,242,879 characters of text; the limit is 2,000,000 characters (ASSAY_MAX_PAPER_CHARS)',
      'many.xml.gz': 'the XML document has more than 500,000 elements, the limit (ASSAY_MAX_XML_ELEMENTS)',
    });
    const paragraphs = await db.prisma.paragraph.findMany({ select: { text: true } });
    expect(paragraphs.length).toBeGreaterThanOrEqual(15);
    expect(Math.max(...paragraphs.map((p) => p.text.length))).toBeLessThanOrEqual(20_000);
    expect(paragraphs.map((p) => p.text).join(' ')).toContain(sentence.trim());
    console.log(`hostile folder imported in ${seconds.toFixed(1)} s`);
    // Questions on the long paper are answered (the pieces are ordinary paragraphs), in every pipeline.
    const service = createRetrievalService(db, testConfig);
    for (const pipeline of ['json-qr', 'bm25', 'graph', 'hybrid'] as const) {
      const r = await service.retrieve('What is the conductivity of YSZ?', pipeline);
      expect(r.evidence.length, pipeline).toBeGreaterThan(0);
    }
  });

  it('stores new papers in batches exactly as one at a time, duplicates and replacements within a batch included', async () => {
    const base = corpusPapers[0];
    const paper = (id: string, doi: string | null, sourceId: string | null, texts: string[], extra: object = {}) => ({
      ...structuredClone(base),
      id,
      doi,
      source_id: sourceId,
      paragraphs: texts.map((text, i) => ({ id: `${id}:p${i}`, section: i ? 'Results' : 'Abstract', text })),
      ...extra,
    });
    const papers = [
      paper('a', '10.9999/batch.a', 'a', ['A first text.', 'A second paragraph.']),
      paper('b', '10.9999/batch.b', 'b', ['B text, kept twice.']),
      paper('c', null, 'c', ['C text without a DOI.']),
      // A's DOI with other text: replaces A, which is kept as a version.
      paper('a2', '10.9999/batch.a', 'a2', ['A replaced text.']),
      // B's text under no DOI and no source id: the same paper as B.
      paper('d', null, null, ['B text, kept twice.']),
      // C's text under a DOI: C gains the DOI.
      paper('e', '10.9999/batch.e', null, ['C text without a DOI.']),
      // B's text under another DOI: a paper of its own.
      paper('f', '10.9999/batch.f', 'f', ['B text, kept twice.']),
      paper('g', '10.9999/batch.g', 'g', ['G text.']),
    ];
    const file = writeCorpusJsonl(tempDir(), 'batch.jsonl', papers);
    const stored = async () => ({
      digest: await databaseDigest(db),
      meta: (await db.prisma.paper.findMany({ orderBy: { contentHash: 'asc' }, select: { meta: true } })).map((p) => p.meta),
      versions: await db.prisma.paperVersion.count(),
    });
    const one = await runIngest(db, testConfig, [file], { trigger: 'cli', paperBatchSize: 1, structure: false });
    const oneAtATime = await stored();
    await db.prisma.paper.deleteMany();
    const batched = await runIngest(db, testConfig, [file], { trigger: 'cli', paperBatchSize: 50, structure: false });
    expect(await stored()).toEqual(oneAtATime);
    expect(batched.counters).toMatchObject({
      papersAdded: one.counters.papersAdded,
      papersUpdated: one.counters.papersUpdated,
      paragraphs: one.counters.paragraphs,
    });
    expect(oneAtATime.digest.papers.map((p) => p.doi)).toEqual(['10.9999/batch.a', '10.9999/batch.b', '10.9999/batch.e', '10.9999/batch.f', '10.9999/batch.g']);
    expect(oneAtATime.versions).toBe(1);
  });

  it('stops when aborted, marks the run interrupted, and a re-run ends in the same database as an uninterrupted one', async () => {
    const dir = tempDir();
    const many = Array.from({ length: 60 }, (_, i) => ({
      ...structuredClone(corpusPapers[0]),
      id: `bulk-${i}`,
      doi: `10.9999/bulk.${i}`,
      paragraphs: [{ id: `bulk-${i}:p1`, section: null, text: `Sample ${i} was sintered at ${1000 + i} °C.` }],
    }));
    const file = writeCorpusJsonl(dir, 'bulk.jsonl', many);
    const records = writeRecordsJsonl(
      dir,
      'sol-gel.jsonl',
      Array.from({ length: 50 }, (_, i) => ({ ...recipeRows[0], reaction_string: `r${i}` })),
    );

    await runIngest(db, testConfig, [file, records], { trigger: 'cli', recordBatchSize: 7, paperBatchSize: 7 });
    const uninterrupted = await databaseDigest(db);
    await db.prisma.record.deleteMany();
    await db.prisma.paper.deleteMany();

    const controller = new AbortController();
    const first = await runIngest(db, testConfig, [file, records], {
      trigger: 'cli',
      signal: controller.signal,
      recordBatchSize: 7,
      paperBatchSize: 7,
      onProgress: (p) => p.papersAdded >= 25 && controller.abort(),
    });
    expect(first.status).toBe('interrupted');
    expect(first.papers).toBeGreaterThanOrEqual(25);
    expect(first.papers).toBeLessThan(60);
    const second = await runIngest(db, testConfig, [file, records], { trigger: 'cli', recordBatchSize: 7, paperBatchSize: 7 });
    expect(second.status).toBe('succeeded');
    expect(await databaseDigest(db)).toEqual(uninterrupted);
  });
});
