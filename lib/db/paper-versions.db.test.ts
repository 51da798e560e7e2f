import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import { runIngest } from '../jobs/import-job.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { corpusPapers, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';
import type { Database } from './database.ts';
import { getRun } from './ingest-runs.ts';
import { paperVersions, restorePaperVersion } from './paper-versions.ts';
import { getPaper } from './papers.ts';

const cfg = readConfig({});
let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db?.close());

describe('paper versions', () => {
  it('a file claiming a stored DOI replaces the paper but keeps what it replaced, says so, and can be undone', async () => {
    const original = corpusPapers[0];
    await runIngest(db, cfg, [writeCorpusJsonl(tempDir(), 'papers.jsonl', [original])], { trigger: 'cli' });
    const stored = await db.prisma.paper.findUniqueOrThrow({ where: { doi: original.doi! }, include: { paragraphs: { orderBy: { ordinal: 'asc' } } } });

    // The hostile upload of issue 14: three lines of Markdown naming the paper's DOI.
    const dir = tempDir();
    const markdown = path.join(dir, 'hijack.md');
    fs.writeFileSync(markdown, `# Nothing to see\n\ndoi: ${original.doi}\n\nThis replaces the paper.\n`);
    const report = await runIngest(db, cfg, [markdown], { trigger: 'upload' });
    const run = await getRun(db.prisma, report.runId);
    expect(run).toMatchObject({ papersUpdated: 1 });
    expect(run!.message).toContain(
      `1 stored paper was replaced by another file, the earlier text kept as a version on the paper's page (doi:${original.doi}: title “${original.title}” → “Nothing to see”`,
    );

    // Nothing is lost: the paper as it was is a version, paragraphs and metadata included.
    const versions = await paperVersions(db.prisma, stored.id);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ title: original.title, source: stored.source, format: stored.format, replacedBy: report.runId });
    expect(versions[0].paragraphs.map((p) => p.text)).toEqual(stored.paragraphs.map((p) => p.text));
    expect(versions[0].summary).toMatch(/text replaced, \d+ → \d+ paragraphs; from .* to Markdown \(text\)/);
    expect((await getPaper(db.prisma, stored.id))?.title).toBe('Nothing to see');

    // The same file again changes nothing and keeps no further version.
    const again = await runIngest(db, cfg, [markdown], { trigger: 'upload' });
    expect((await getRun(db.prisma, again.runId))?.papersUnchanged).toBe(1);
    expect(await paperVersions(db.prisma, stored.id)).toHaveLength(1);

    // Restoring brings the original back and keeps the replacement as a version in turn.
    await restorePaperVersion(db.prisma, versions[0].id);
    const restored = await db.prisma.paper.findUniqueOrThrow({ where: { id: stored.id }, include: { paragraphs: { orderBy: { ordinal: 'asc' } } } });
    expect(restored).toMatchObject({
      title: original.title,
      doi: original.doi,
      source: stored.source,
      contentHash: stored.contentHash,
      fingerprint: stored.fingerprint,
    });
    expect(restored.paragraphs.map((p) => [p.section, p.text])).toEqual(stored.paragraphs.map((p) => [p.section, p.text]));
    const after = await paperVersions(db.prisma, stored.id);
    expect(after.map((v) => v.title)).toEqual(['Nothing to see']);
    // And re-importing the original corpus file is a no-op again.
    const reimport = await runIngest(db, cfg, [writeCorpusJsonl(tempDir(), 'papers.jsonl', [original])], { trigger: 'cli' });
    expect((await getRun(db.prisma, reimport.runId))?.papersUnchanged).toBe(1);
  });
});
