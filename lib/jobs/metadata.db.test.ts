import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { metadataOf } from '../db/paper-metadata.ts';
import { fetchPaperMetadata, type ScholarlyMetadata } from '../scholarly/metadata.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { FAKE_FAILURES, type FakeScholarly, fixtureWorks, startFakeScholarly } from '../../scripts/test-support/fake-scholarly.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { jatsTableXml, teiTableXml } from '../../scripts/test-support/table-fixtures.ts';
import { runIngest } from './import-job.ts';
import { MetadataOffline, runMetadata, servicesOf } from './metadata.ts';

/**
 * Paper metadata from Crossref and OpenAlex, against a local fake of both APIs: merged records, retraction and
 * correction notices, and every way the services fail — unreachable, slow, not JSON, the wrong shape, HTTP errors —
 * each a clear message that loses nothing stored and leaves the import alone.
 */
let fake: FakeScholarly;
let db: Database;
const cfgFor = (f: { crossrefUrl: string; openAlexUrl: string }, timeout = '2') =>
  readConfig({
    ASSAY_DATA_DIR: tempDir(),
    ASSAY_CROSSREF_URL: f.crossrefUrl,
    ASSAY_OPENALEX_URL: f.openAlexUrl,
    ASSAY_CONTACT_EMAIL: 'lab@example.org',
    ASSAY_SCHOLARLY_TIMEOUT_SECONDS: timeout,
  });

beforeAll(async () => {
  fake = await startFakeScholarly(fixtureWorks, { slowMs: 3_000 });
  db = await openTestDatabase();
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'cathodes.xml'), jatsTableXml());
  fs.writeFileSync(path.join(dir, 'superconductors.tei.xml'), teiTableXml());
  fs.writeFileSync(path.join(dir, 'unknown.tei.xml'), teiTableXml({ doi: '10.9999/not.registered' }));
  await runIngest(db, readConfig({ ASSAY_DATA_DIR: tempDir() }), [dir], { trigger: 'cli' });
});
afterAll(async () => {
  await fake?.close();
  await db?.close();
});

const paperId = async (doi: string) => (await db.prisma.paper.findFirstOrThrow({ where: { doi } })).id;

describe('paper metadata from Crossref and OpenAlex', () => {
  it('merges both records: ORCIDs, venue, year, licence, citations, and the retraction notice', async () => {
    const outcome = await fetchPaperMetadata('10.9999/demo.tables.2024.001', servicesOf(cfgFor(fake)));
    expect(outcome.status).toBe('ok');
    expect(outcome.data).toMatchObject({
      authors: [{ name: 'Rosalind Franklin', orcid: '0000-0002-1825-0097' }],
      venue: 'Invented Cathode Letters',
      year: 2024,
      license: 'http://creativecommons.org/licenses/by/4.0/',
      citedBy: 17,
      retracted: true,
      notices: [{ kind: 'retraction', doi: '10.9999/demo.tables.2024.001.retraction', date: '2025-06-02' }],
      sources: ['Crossref', 'OpenAlex'],
    } satisfies Partial<ScholarlyMetadata>);
    // Polite: the contact address travels with each call.
    expect(fake.requests.some((r) => r.startsWith('/crossref/works/10.9999%2Fdemo.tables.2024.001?mailto=lab%40example.org'))).toBe(true);
    expect((await fetchPaperMetadata('10.9999/not.registered', servicesOf(cfgFor(fake)))).status).toBe('not-found');
  });

  it('runs as a job over every paper with a DOI, storing each outcome', async () => {
    const done = await runMetadata(db, cfgFor(fake));
    expect(done).toMatchObject({ total: 3, done: 3, ok: 2, notFound: 1, failed: 0 });
    const corrected = await metadataOf(db, await paperId('10.9999/demo.tables.2023.002'));
    expect(corrected?.status).toBe('ok');
    expect((corrected!.data as ScholarlyMetadata).notices[0]).toMatchObject({ kind: 'correction' });
    expect((await metadataOf(db, await paperId('10.9999/not.registered')))?.status).toBe('not-found');
    // Fresh metadata is not asked for again.
    expect((await runMetadata(db, cfgFor(fake))).total).toBe(0);
  });

  it('fails softly when the services answer slowly, with something that is not JSON, in the wrong shape or with errors', async () => {
    const id = await paperId('10.9999/demo.tables.2024.001');
    for (const [mode, said] of FAKE_FAILURES) {
      fake.mode = mode;
      const outcome = await fetchPaperMetadata('10.9999/demo.tables.2024.001', servicesOf(cfgFor(fake, '1')));
      expect(outcome.status, mode).toBe('error');
      expect(outcome.message, mode).toMatch(said);
      expect(outcome.message).toMatch(/Crossref.*; .*OpenAlex|OpenAlex.*; .*Crossref/);
      // A refresh that fails keeps what an earlier fetch stored.
      await runMetadata(db, cfgFor(fake, '1'), { refresh: true }).catch(() => {});
      const kept = await metadataOf(db, id);
      expect(kept?.status).toBe('error');
      expect((kept!.data as ScholarlyMetadata).retracted).toBe(true);
    }
    fake.mode = 'normal';
  });

  it('stops with a clear message when both services are unreachable (offline), losing nothing', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const offline = cfgFor({ crossrefUrl: `http://127.0.0.1:${port}`, openAlexUrl: `http://127.0.0.1:${port}` });
    const error = await runMetadata(db, offline, { refresh: true }).catch((e) => e);
    expect(error).toBeInstanceOf(MetadataOffline);
    expect(error.message).toMatch(
      /Crossref and OpenAlex could not be reached for 3 papers in a row \(cannot reach Crossref at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
    expect(error.message).toMatch(/Nothing stored was lost/);
    const kept = await metadataOf(db, await paperId('10.9999/demo.tables.2024.001'));
    expect((kept!.data as ScholarlyMetadata).retracted).toBe(true);
    // The corpus is untouched: the papers, their paragraphs and tables are all there.
    expect(await db.prisma.paper.count()).toBe(3);
  });
});
