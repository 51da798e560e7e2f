import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { getRun } from '../db/ingest-runs.ts';
import { getPaperSearch } from '../db/paper-searches.ts';
import { runIngest } from '../jobs/import-job.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { FAKE_FAILURES, type FakeScholarly, fixtureWorks, startFakeScholarly } from '../../scripts/test-support/fake-scholarly.ts';
import { jatsXml, tempDir } from '../../scripts/test-support/fixtures.ts';
import { importFoundPapers, paperSearchReport } from './found-imports.ts';
import { findCandidates, lookForPapers, type PaperCandidate, searchTerms } from './paper-search.ts';

/**
 * "Look for papers" end to end against a local fake of OpenAlex's and Europe PMC's search (written to their documented
 * formats): candidates with why each may help and whether its licence and full text allow an import; the import
 * through the normal job, with the found paper's tuples validated (an impossible value kept out, a disagreement
 * with the library flagged); every step in the search's trace; and each way a service fails, softly.
 */
let fake: FakeScholarly;
let db: Database;
const QUESTION = 'What is the critical temperature of Nb3Ge thin films?';
const cfgFor = (urls: { openAlexUrl: string; europePmcUrl: string }, timeout = '2') =>
  readConfig({
    ASSAY_DATA_DIR: tempDir(),
    ASSAY_OPENALEX_URL: urls.openAlexUrl,
    ASSAY_EUROPEPMC_URL: urls.europePmcUrl,
    ASSAY_SCHOLARLY_TIMEOUT_SECONDS: timeout,
    ASSAY_ENRICHMENT: 'off', // no metadata or link jobs after the import in these tests
  });

async function closedPort(): Promise<string> {
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  fake = await startFakeScholarly(fixtureWorks, { slowMs: 2_000 });
  db = await openTestDatabase();
  // The library: one paper that gives Nb3Ge a different critical temperature (the found paper's value will conflict),
  // and one that is already the third candidate (by its DOI).
  const dir = tempDir();
  fs.writeFileSync(
    path.join(dir, 'earlier.xml'),
    jatsXml({ pmcid: 'PMC0000077', doi: '10.9999/library.nb3ge.1999', title: 'Early Nb3Ge films' }).replace(
      /<body>[\s\S]*<\/body>/,
      '<body><sec><title>Results</title><p>Nb3Ge films showed a critical temperature of 6.1 K.</p></sec></body>',
    ),
  );
  await runIngest(db, readConfig({ ASSAY_DATA_DIR: tempDir() }), [dir], { trigger: 'cli' });
});
afterAll(async () => {
  await fake?.close();
  await db?.close();
});

describe('look for papers', () => {
  it('searches for what the question names, as the question words it', () => {
    const s = searchTerms(QUESTION);
    expect(s.terms.map((t) => [t.name, t.kind])).toEqual([
      ['Nb3Ge', 'material'],
      ['critical temperature', 'property'],
    ]);
    expect(s.europePmcQuery).toBe('Nb3Ge AND "critical temperature"');
    // A question naming nothing the lexicons know is searched by its content words.
    expect(searchTerms('Which paper discusses perovskite tolerance factors?').query).toMatch(/perovskite.*tolerance.*factors/);
  });

  it('finds candidates in both services, says why each may help, and which can be imported', async () => {
    const found = await findCandidates(db, cfgFor(fake), QUESTION);
    expect(found.failures).toEqual([]);
    const byDoi = new Map(found.candidates.map((c) => [c.doi, c]));
    const films = byDoi.get('10.9999/found.nb3ge.2021.001')!;
    expect(films).toMatchObject({ pmcid: 'PMC9900001', licence: 'cc-by', importable: true, blocked: null, foundBy: ['OpenAlex', 'Europe PMC'] });
    expect(films.why).toEqual(['names Nb3Ge, critical temperature in its title']);
    expect(byDoi.get('10.9999/found.a15.2015.003')?.why).toEqual(['names Nb3Ge in its title', 'and critical temperature in its abstract']);
    expect(byDoi.get('10.9999/found.nb3ge.2019.002')).toMatchObject({ importable: false, licence: 'cc-by-nc-nd' });
    expect(byDoi.get('10.9999/found.nb3ge.2019.002')?.blocked).toMatch(/licence \(CC BY-NC-ND\) is not one imports are allowed under/);
    expect(byDoi.get('10.9999/found.a15.2015.003')?.blocked).toMatch(/Europe PMC holds no full text/);
    // The services were asked for open-access works only.
    expect(fake.requests.some((r) => r.startsWith('/openalex/works?search=Nb3Ge+critical+temperature&filter=is_oa%3Atrue'))).toBe(true);
    expect(fake.requests.some((r) => r.includes('/europepmc/search?query=%28Nb3Ge+AND+%22critical+temperature%22%29+AND+OPEN_ACCESS%3Ay'))).toBe(true);
    // A licence an admin allows (ASSAY_IMPORT_LICENCES) makes the second importable.
    const nd = await findCandidates(db, { ...cfgFor(fake), scholarly: { ...cfgFor(fake).scholarly, importLicences: ['cc-by', 'cc-by-nc-nd'] } }, QUESTION);
    expect(nd.candidates.find((c) => c.pmcid === 'PMC9900002')?.importable).toBe(true);
  });

  it('imports the chosen paper through the import job, validates its tuples, and traces every step', async () => {
    const cfg = cfgFor(fake);
    const searchId = await lookForPapers(db, cfg, { question: QUESTION, answerId: null, createdBy: 'admin@example.org' });
    // What the form sends is checked against the search: a paper it judged not importable is never imported.
    await expect(importFoundPapers(db, cfg, searchId, ['PMC9900002'], 'admin@example.org')).rejects.toThrow(/choose at least one paper that can be imported/);
    const { runId, papers } = await importFoundPapers(db, cfg, searchId, ['PMC9900001', 'PMC9900002'], 'admin@example.org');
    expect(papers).toEqual(['PMC9900001']);
    await expect(importFoundPapers(db, cfg, searchId, ['PMC9900001'], null)).rejects.toThrow(/being imported already/);
    for (let i = 0; i < 300 && !['succeeded', 'failed'].includes((await getRun(db.prisma, runId, 0))?.status ?? ''); i++)
      await new Promise((r) => setTimeout(r, 200));
    expect((await getRun(db.prisma, runId, 0))?.status).toBe('succeeded');

    const report = (await paperSearchReport(db, searchId))!;
    expect(report.search.status).toBe('imported');
    const [paper] = report.papers;
    expect(paper).toMatchObject({ pmcid: 'PMC9900001', title: 'Critical temperature of sputtered Nb3Ge thin films' });
    expect((await db.prisma.paper.findUniqueOrThrow({ where: { id: paper.paperId! } })).source).toBe('Online search');
    // A compound that cannot exist and a temperature in a current density's unit are kept out of the graph, with the reason.
    expect(paper.rejected.map((r) => [r.rule, r.message])).toEqual([
      ['impossible', '“Nb3Gc” names no compound: Gc is not an element'],
      ['unit', 'mA/cm^2 is not a unit of superconducting transition temperature (a temperature in K)'],
    ]);
    const tuples = await db.prisma.graphTuple.findMany({ where: { paperId: paper.paperId! }, select: { value: true, subject: { select: { label: true } } } });
    expect(tuples.map((t) => t.subject.label)).not.toContain('Nb3Gc films');
    expect(tuples.map((t) => t.value)).not.toContain(2.1);
    expect(paper.joined).toBe(tuples.length);
    expect(paper.joined).toBeGreaterThan(0);
    // 22.3 K against the library's 6.1 K for Nb3Ge, under the same (no) conditions: joined, and flagged.
    expect(paper.conflicts.length).toBeGreaterThan(0);
    expect(paper.conflicts[0].conflictsWith[0].statement).toMatch(/Nb3Ge has property .*\(6\.1 K\)/);
    expect(tuples.length).toBeGreaterThanOrEqual(paper.conflicts.length);
    // Every step, in order.
    const trace = (await getPaperSearch<PaperCandidate>(db, searchId))!.trace;
    expect(trace.map((t) => t.step)).toEqual(['search-terms', 'OpenAlex', 'Europe PMC', 'candidates', 'import', 'validate']);
    expect(trace.at(-1)?.detail).toMatchObject({ papers: 1, rejected: paper.rejected.length, conflicts: paper.conflicts.length });
    // The paper is in the library now: a new search says so and does not offer it again.
    const again = await findCandidates(db, cfg, QUESTION);
    expect(again.candidates.find((c) => c.pmcid === 'PMC9900001')).toMatchObject({ importable: false, blocked: 'the library holds it already' });
  });

  it('keeps going when one service is unreachable, and says so', async () => {
    const found = await findCandidates(db, cfgFor({ openAlexUrl: await closedPort(), europePmcUrl: fake.europePmcUrl }), QUESTION);
    expect(found.failures).toEqual([{ service: 'OpenAlex', message: expect.stringMatching(/cannot reach OpenAlex at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/) }]);
    expect(found.candidates.map((c) => c.pmcid)).toContain('PMC9900002');
    expect(found.steps.find((s) => s.step === 'OpenAlex')?.detail).toMatchObject({ failed: 'unreachable' });
  });

  it('fails softly when the services are slow, answer something that is not JSON, or in the wrong shape', async () => {
    const before = await db.prisma.paper.count();
    for (const [mode, said] of FAKE_FAILURES) {
      fake.mode = mode;
      const id = await lookForPapers(db, cfgFor(fake, '1'), { question: QUESTION, answerId: null, createdBy: null });
      const search = (await getPaperSearch<PaperCandidate>(db, id))!;
      expect(search.status, mode).toBe('failed');
      expect(search.candidates).toEqual([]);
      for (const service of ['OpenAlex', 'Europe PMC']) expect(String(search.trace.find((t) => t.step === service)?.detail.message), mode).toMatch(said);
    }
    fake.mode = 'normal';
    expect(await db.prisma.paper.count()).toBe(before);
  });

  it('reports an import whose full text cannot be downloaded, and lets the admin try again', async () => {
    const cfg = cfgFor(fake);
    const id = await lookForPapers(db, cfg, { question: 'Nb3Ge wires', answerId: null, createdBy: null });
    const allowNd = { ...cfg, scholarly: { ...cfg.scholarly, importLicences: ['cc-by-nc-nd'] } };
    const searchId = await lookForPapers(db, allowNd, { question: 'Nb3Ge wires', answerId: null, createdBy: null });
    expect((await getPaperSearch<PaperCandidate>(db, id))!.candidates.every((c) => !c.importable)).toBe(true);
    fake.mode = 'error';
    const { runId } = await importFoundPapers(db, allowNd, searchId, ['PMC9900002'], null);
    for (let i = 0; i < 100 && !['succeeded', 'failed'].includes((await getRun(db.prisma, runId, 0))?.status ?? ''); i++)
      await new Promise((r) => setTimeout(r, 100));
    fake.mode = 'normal';
    const report = (await paperSearchReport(db, searchId))!;
    expect(report.run?.errors).toEqual([{ file: 'PMC9900002', reason: expect.stringMatching(/Europe PMC answered HTTP 500/) }]);
    // Back to found: the admin can import again; the failure is a step of the trace.
    expect(report.search.status).toBe('found');
    expect(report.search.trace.at(-1)).toMatchObject({
      step: 'import-failed',
      detail: { message: expect.stringMatching(/PMC9900002: Europe PMC answered HTTP 500/) },
    });
    expect(await db.prisma.paper.count({ where: { sourceId: 'PMC9900002' } })).toBe(0);
  });
});
