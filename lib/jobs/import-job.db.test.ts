import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createRun, getRun, interruptedRuns, type StageState } from '../db/ingest-runs.ts';
import { corpusPapers, recipeRows, tempDir, writeCorpusJsonl, writeRecordsJsonl } from '../../scripts/test-support/fixtures.ts';
import { databaseDigest, enrichmentDigest, openTestDatabase } from '../../scripts/test-support/database.ts';
import { resumeOnStart } from './background.ts';
import { resumeIngest, runIngest } from './import-job.ts';

const cfg = readConfig({});

// Enough invented papers that a stop can fall in the middle of the import stage.
const papers = [
  ...corpusPapers,
  ...Array.from({ length: 12 }, (_, i) => ({
    ...structuredClone(corpusPapers[0]),
    id: `job-${i}`,
    doi: `10.9999/job.${i}`,
    title: `Ceria electrolyte study ${i}`,
    paragraphs: [
      {
        id: null,
        section: 'Experimental',
        text: `Gd0.1Ce0.9O2 powder ${i} was prepared by a sol-gel route from cerium nitrate and calcined at ${600 + 10 * i} °C for 4 h.`,
      },
      { id: null, section: 'Results', text: `The cell reached a peak power density of ${300 + i} mW cm−2 at 700 °C.` },
    ],
  })),
];

/** The papers in five files (progress, hence the test's stop, comes between files) and the recipes. */
function corpus(): string[] {
  const dir = tempDir('assay-job-');
  const files = [0, 1, 2, 3, 4].map((i) => writeCorpusJsonl(dir, `papers-${i}.jsonl`, papers.slice(3 * i, 3 * i + 3)));
  return [...files, writeRecordsJsonl(dir, 'sol-gel.jsonl', recipeRows)];
}

const stagesOf = async (db: Database, id: string) => ((await getRun(db.prisma, id, 0))!.stages as unknown as StageState[]).map((s) => `${s.name}:${s.status}`);

let db: Database;
let reference: Database;
beforeEach(async () => {
  db = await openTestDatabase();
  reference = await openTestDatabase();
  await runIngest(reference, cfg, corpus(), { trigger: 'cli' });
});
afterEach(async () => {
  await db.close();
  await reference.close();
});

async function expectSameAsUninterrupted() {
  expect(await databaseDigest(db)).toEqual(await databaseDigest(reference));
  expect(await enrichmentDigest(db)).toEqual(await enrichmentDigest(reference));
}

describe('import jobs report their stages', () => {
  it('tell each stage as it starts and as it ends, with its outcome and seconds', async () => {
    const events: string[] = [];
    const report = await runIngest(db, cfg, corpus(), {
      trigger: 'cli',
      onStage: (s) => events.push(`${s.name}:${s.status}${s.status !== 'running' && typeof s.seconds === 'number' ? ':timed' : ''}`),
    });
    expect(report.status).toBe('succeeded');
    expect(events).toEqual(['import:running', 'import:done:timed', 'structure:running', 'structure:done:timed', 'graph:running', 'graph:done:timed']);
  });
});

describe('import jobs survive a stop', () => {
  it('stopped in its import stage, a job resumes from the files and ends equal to an uninterrupted import', async () => {
    const stop = new AbortController();
    const first = await runIngest(db, cfg, corpus(), {
      trigger: 'startup',
      signal: stop.signal,
      onProgress: (p) => {
        if (p.papersAdded >= 3) stop.abort();
      },
    });
    expect(first.status).toBe('interrupted');
    expect(first.papers).toBeLessThan(papers.length);
    expect(await stagesOf(db, first.runId)).toEqual(['import:pending', 'structure:pending', 'graph:pending']);

    const again = await resumeIngest(db, cfg, first.runId);
    expect(again?.status).toBe('succeeded');
    const run = (await getRun(db.prisma, first.runId, 0))!;
    expect(run.attempts).toBe(2);
    expect(run.papersAdded).toBe(papers.length);
    expect(run.message).toMatch(/resumed/);
    expect(await stagesOf(db, first.runId)).toEqual(['import:done', 'structure:done', 'graph:done']);
    await expectSameAsUninterrupted();
    // A finished run cannot be resumed twice.
    expect(await resumeIngest(db, cfg, first.runId)).toBeNull();
  });

  it('stopped after its import stage, the next start runs the structuring and graph stages that never ran', async () => {
    const stop = new AbortController();
    const first = await runIngest(db, cfg, corpus(), {
      trigger: 'cli',
      signal: stop.signal,
      onProgress: (p) => {
        if (p.currentFile === null && p.filesTotal > 0 && p.filesDone === p.filesTotal) stop.abort();
      },
    });
    expect(first.status).toBe('interrupted');
    expect(await stagesOf(db, first.runId)).toEqual(['import:done', 'structure:pending', 'graph:pending']);
    expect(await db.prisma.graphTuple.count()).toBe(0);

    expect(await resumeOnStart(db, cfg)).toEqual([first.runId]);
    await expect.poll(async () => (await getRun(db.prisma, first.runId, 0))!.status, { timeout: 30_000, interval: 100 }).toBe('succeeded');
    expect(await stagesOf(db, first.runId)).toEqual(['import:done', 'structure:done', 'graph:done']);
    await expectSameAsUninterrupted();
  });

  it('a process that died in a stage leaves it running: the next start counts it pending and resumes the job', async () => {
    const cli = await createRun(db.prisma, 'cli', corpus(), 'interrupted', {
      stages: [
        { name: 'import', status: 'running' },
        { name: 'structure', status: 'pending' },
        { name: 'graph', status: 'pending' },
      ],
    });
    const upload = await createRun(db.prisma, 'upload', ['b.pdf'], 'interrupted', { stages: [{ name: 'import', status: 'running' }] });
    expect(await resumeOnStart(db, cfg)).toEqual([]);
    expect(await stagesOf(db, upload.id)).toEqual(['import:pending']);
    const killed = await createRun(db.prisma, 'cli', corpus(), 'interrupted', {
      stages: [
        { name: 'import', status: 'done' },
        { name: 'structure', status: 'running' },
        { name: 'graph', status: 'pending' },
      ],
      options: { changed: true },
    });
    expect(await resumeOnStart(db, cfg)).toEqual([killed.id]);
    await expect.poll(async () => (await getRun(db.prisma, killed.id, 0))!.status, { timeout: 30_000, interval: 100 }).toBe('succeeded');
    expect(await stagesOf(db, cli.id)).toEqual(['import:pending', 'structure:pending', 'graph:pending']);
  });

  it('an upload stopped while reading its files waits for Resume; a first-start run from before jobs resumes whole', async () => {
    const upload = await createRun(db.prisma, 'upload', ['a.pdf'], 'interrupted', { stages: [{ name: 'import', status: 'pending' }] });
    const legacy = await createRun(db.prisma, 'startup', corpus(), 'interrupted');
    expect(await resumeOnStart(db, cfg)).toEqual([legacy.id]);
    await expect.poll(async () => (await getRun(db.prisma, legacy.id, 0))!.status, { timeout: 30_000, interval: 100 }).toBe('succeeded');
    expect((await interruptedRuns(db.prisma)).map((r) => r.id)).toEqual([upload.id]);
    await expectSameAsUninterrupted();
  });
});
