import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { getRun } from '../db/ingest-runs.ts';
import { readConfig } from '../config.ts';
import { CorpusFetchError, fetchStarterCorpus } from './europe-pmc.ts';
import { downloadAndIngestStarterCorpus } from './starter.ts';
import { jatsXml, tempDir } from '../../scripts/test-support/fixtures.ts';
import { openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';

/** A stand-in for Europe PMC's REST service on loopback: a search endpoint and full-text XML per PMC id. */
let server: http.Server;
let base: string;
const requests: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/rest/search') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ resultList: { result: [{ pmcid: 'PMC111' }, { pmcid: 'PMC222' }, { id: 'no-pmc' }, { pmcid: 'PMC404' }] } }));
      return;
    }
    const m = /^\/rest\/(PMC\d+)\/fullTextXML$/.exec(url.pathname);
    if (m && m[1] !== 'PMC404') {
      res.setHeader('content-type', 'application/xml');
      res.end(jatsXml({ pmcid: m[1], doi: `10.9999/${m[1].toLowerCase()}`, title: `Article ${m[1]}` }));
      return;
    }
    res.statusCode = 404;
    res.end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('Europe PMC starter corpus', () => {
  it('searches, downloads each full text, reports failures, and resumes without downloading again', async () => {
    const outDir = tempDir();
    requests.length = 0;
    const res = await fetchStarterCorpus({ baseUrl: base, query: 'SOFC AND OPEN_ACCESS:y', size: 10, outDir });
    expect(res.files.map((f) => f.split('/').pop())).toEqual(['PMC111.xml', 'PMC222.xml']);
    expect(res.failures).toEqual([{ id: 'PMC404', reason: expect.stringMatching(/HTTP 404/) }]);
    expect(requests[0]).toMatch(/^\/rest\/search\?query=SOFC%20AND%20OPEN_ACCESS%3Ay&format=json/);
    requests.length = 0;
    await fetchStarterCorpus({ baseUrl: base, query: 'q', size: 10, outDir });
    expect(requests.filter((r) => r.includes('PMC111'))).toEqual([]);
  });

  it('fails with a clear offline message when the service cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const attempt = fetchStarterCorpus({ baseUrl: `http://127.0.0.1:${port}/rest`, query: 'q', size: 5, outDir: tempDir(), timeoutMs: 2000 });
    await expect(attempt).rejects.toBeInstanceOf(CorpusFetchError);
    await expect(attempt).rejects.toThrow(/cannot reach Europe PMC .*works offline/);
  });

  describe(`download + ingest (${testDatabaseKind()})`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await openTestDatabase();
    });
    afterAll(async () => {
      await db?.close();
    });
    it('ingests downloaded JATS as Europe PMC papers in one run with its download errors', async () => {
      const cfg = readConfig({ ASSAY_DATA_DIR: tempDir(), ASSAY_EUROPEPMC_URL: base });
      const report = await downloadAndIngestStarterCorpus(db, cfg);
      expect(report.status).toBe('succeeded');
      const papers = await db.prisma.paper.findMany({ orderBy: { sourceId: 'asc' } });
      expect(papers.map((p) => [p.source, p.sourceId, p.title])).toEqual([
        ['Europe PMC', 'PMC111', 'Article PMC111'],
        ['Europe PMC', 'PMC222', 'Article PMC222'],
      ]);
      const run = await getRun(db.prisma, report.runId);
      expect(run).toMatchObject({ trigger: 'fetch', status: 'succeeded', errorCount: 1 });
      expect(run!.errors[0]).toMatchObject({ file: 'PMC404', location: 'download' });
    });
    it('records an offline failure on the run', async () => {
      const cfg = readConfig({ ASSAY_DATA_DIR: tempDir(), ASSAY_EUROPEPMC_URL: 'http://127.0.0.1:9/rest' });
      const result = await downloadAndIngestStarterCorpus(db, cfg);
      expect(result.status).toBe('failed');
      const run = await getRun(db.prisma, result.runId);
      expect(run?.message).toMatch(/cannot reach Europe PMC/);
    });
  });
});
