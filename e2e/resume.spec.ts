import { type ChildProcess, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { inventedPapers, recipeRows, tempDir, writeCorpusJsonl, writeRecordsJsonl } from '../scripts/test-support/fixtures.ts';
import { startBuiltApp } from '../scripts/test-support/built-app.ts';
import { adminSession, shots } from './helpers.ts';

/**
 * A new user's first start, stopped hard in the middle: the app is killed (SIGKILL) during the first-start
 * import of ASSAY_CORPUS and started again. The import completes by itself (through to the retrieval index),
 * and the database then equals the one an uninterrupted import makes (papers, records, structured paragraphs,
 * paper records, graph). An upload stopped mid-way waits for the user's Resume on /import.
 */
const root = path.resolve(import.meta.dirname, '..');
const port = String(Number(process.env.E2E_PORT ?? '3311') + 2);
const base = `http://127.0.0.1:${port}`;

// Invented papers, enough that the import takes several seconds, spread over files (progress comes per file).
const papers = inventedPapers(900, 'resume');

// One new paper to a statement: the 900 papers' import stage then lasts long enough for a stop to land in it on any
// machine (in batches of 50 it ended before the run's first progress reached the page; a batched import stopped
// mid-way is tested in lib/ingest/pipeline.db.test.ts).
// Each start's log is kept, and printed when the test fails (a server that could not listen, or an import that
// stopped, says why there).
function startApp(dataDir: string, corpus: string, output: { text: string }): ChildProcess {
  const app = startBuiltApp(
    port,
    { ASSAY_DATA_DIR: dataDir, ASSAY_CORPUS: corpus, ASSAY_LOCAL_EMBEDDER: 'ngram', ASSAY_IMPORT_BATCH_PAPERS: '1' },
    { stdio: 'pipe' },
  );
  output.text += `--- server started (pid ${app.pid})\n`;
  for (const stream of [app.stdout, app.stderr]) stream?.on('data', (d) => (output.text += d));
  app.on('exit', (code, signal) => (output.text += `--- server exited (${signal ?? code})\n`));
  return app;
}

/** Prints the servers' logs of a failed test with its error. */
function printServerLog(output: { text: string }) {
  console.log(`server log of the failed test (last 6,000 characters):\n${output.text.slice(-6000)}`);
}

async function waitUntilStopped(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((r) => child.once('exit', r));
}

/** The admin's cookie on the server under test (import runs are an admin's to see). */
const session = { header: '' };
const json = async (url: string) => {
  try {
    // Bounded: a request the server never answers counts as no answer, and the poll asks again.
    const res = await fetch(url, { headers: session.header ? { cookie: session.header } : {}, signal: AbortSignal.timeout(10_000) });
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
};

const digest = (dataDir: string) =>
  JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'e2e/db-digest.ts', dataDir], { cwd: root, encoding: 'utf8' }));

test('a first-start import killed mid-way completes by itself on the next start and equals an uninterrupted one', async ({ page }) => {
  test.setTimeout(300_000);
  const corpus = tempDir('assay-resume-corpus-');
  for (let f = 0; f < 18; f++) writeCorpusJsonl(corpus, `papers-${String(f).padStart(2, '0')}.jsonl`, papers.slice(f * 50, f * 50 + 50));
  writeRecordsJsonl(corpus, 'sol-gel.jsonl', recipeRows);
  const killedDir = tempDir('assay-resume-killed-');
  const referenceDir = tempDir('assay-resume-reference-');
  const output = { text: '' };
  let app: ChildProcess | null = null;
  try {
    // The reference: the same corpus imported without interruption.
    execFileSync(process.execPath, ['--import', 'tsx', 'lib/cli/ingest.ts', corpus], {
      cwd: root,
      env: { ...process.env, ASSAY_DATA_DIR: referenceDir, DATABASE_URL: '' },
      stdio: 'ignore',
    });

    app = startApp(killedDir, corpus, output);
    await expect.poll(async () => (await json(`${base}/api/health`))?.papers ?? 0, { timeout: 90_000, intervals: [100] }).toBeGreaterThanOrEqual(100);
    const before = (await json(`${base}/api/health`)).papers as number;
    process.kill(-app.pid!, 'SIGKILL');
    await waitUntilStopped(app);
    expect(before).toBeLessThan(papers.length);

    app = startApp(killedDir, corpus, output);
    await expect.poll(async () => (await json(`${base}/api/health`))?.ok, { timeout: 60_000, intervals: [200] }).toBe(true);
    const admin = await adminSession(base);
    session.header = admin.header;
    await page.context().addCookies(admin.cookies);
    await expect.poll(async () => (await json(`${base}/api/ingest-runs`))?.runs?.[0]?.status, { timeout: 180_000, intervals: [500] }).toBe('succeeded');
    const { runs } = await json(`${base}/api/ingest-runs`);
    expect(runs).toHaveLength(1); // the same run, resumed, not a second import
    expect(runs[0]).toMatchObject({ trigger: 'startup', attempts: 2 });
    expect(runs[0].stages.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
      'import:done',
      'structure:done',
      'graph:done',
      'index:done',
      'records:done',
    ]);

    await page.goto(`${base}/import`);
    await page
      .getByTestId('recent-runs')
      .getByRole('button', { name: /startup/ })
      .click();
    await expect(page.getByTestId('run-stages').locator('[data-stage-status="done"]')).toHaveCount(5);
    await expect(page.getByTestId('run-status')).toContainText('resumed (attempt 2)');
    await page.screenshot({ path: `${shots}/import-resumed.png`, fullPage: true });

    process.kill(-app.pid!, 'SIGTERM');
    await waitUntilStopped(app);
    app = null;
    const resumed = digest(killedDir);
    const reference = digest(referenceDir);
    expect(resumed.papers).toBe(papers.length);
    expect(resumed.tuples).toBeGreaterThan(0);
    expect(resumed).toEqual(reference);
  } catch (error) {
    printServerLog(output);
    throw error;
  } finally {
    if (app?.pid) {
      try {
        process.kill(-app.pid, 'SIGKILL');
      } catch {}
    }
    for (const d of [corpus, killedDir, referenceDir]) fs.rmSync(d, { recursive: true, force: true });
  }
});

test('an upload stopped mid-way is shown interrupted on /import, and Resume completes it', async ({ page }) => {
  test.setTimeout(240_000);
  const dataDir = tempDir('assay-resume-upload-');
  const uploadDir = tempDir('assay-resume-file-');
  const upload = writeCorpusJsonl(uploadDir, 'many-papers.jsonl', papers);
  const output = { text: '' };
  let app: ChildProcess | null = startApp(dataDir, '', output);
  try {
    await expect.poll(async () => (await json(`${base}/api/health`))?.ok, { timeout: 60_000, intervals: [200] }).toBe(true);
    const admin = await adminSession(base);
    session.header = admin.header;
    await page.context().addCookies(admin.cookies);
    const form = new FormData();
    form.append('files', new Blob([fs.readFileSync(upload)]), 'many-papers.jsonl');
    const res = await fetch(`${base}/api/import`, { method: 'POST', body: form, headers: { cookie: session.header } });
    expect(res.status).toBe(202);
    const { runId } = await res.json();
    await expect
      .poll(async () => (await json(`${base}/api/ingest-runs/${runId}`))?.run?.papersAdded ?? 0, { timeout: 60_000, intervals: [100] })
      .toBeGreaterThan(0);
    // A graceful stop: the job ends its current paper and stores where it was, and the app closes its database
    // before it exits (its own handler runs, not only Next's).
    process.kill(-app.pid!, 'SIGTERM');
    await waitUntilStopped(app);
    expect(output.text).toContain('[assay] SIGTERM: database closed');
    expect(app.exitCode).toBe(0);

    app = startApp(dataDir, '', output);
    await expect.poll(async () => (await json(`${base}/api/health`))?.ok, { timeout: 60_000, intervals: [200] }).toBe(true);
    await page.goto(`${base}/import`);
    const status = page.getByTestId('run-status');
    await expect(status).toHaveAttribute('data-status', 'interrupted', { timeout: 60_000 });
    await expect(status.locator('[data-stage="import"]')).toHaveAttribute('data-stage-status', 'pending');
    await page.screenshot({ path: `${shots}/import-interrupted.png`, fullPage: true });
    await status.getByRole('button', { name: 'Resume' }).click();
    await expect(status).toHaveAttribute('data-status', 'succeeded', { timeout: 120_000 });
    const run = (await json(`${base}/api/ingest-runs/${runId}`)).run;
    expect(run).toMatchObject({ trigger: 'upload', attempts: 2, errorCount: 0 });
    expect((await json(`${base}/api/health`)).papers).toBe(papers.length);
    // Resuming a finished run is refused with the reason.
    const again = await fetch(`${base}/api/ingest-runs/${runId}/resume`, { method: 'POST', headers: { cookie: session.header } });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatch(/only an interrupted run can be resumed/);
  } catch (error) {
    printServerLog(output);
    throw error;
  } finally {
    if (app?.pid) {
      try {
        process.kill(-app.pid, 'SIGKILL');
      } catch {}
    }
    for (const d of [dataDir, uploadDir]) fs.rmSync(d, { recursive: true, force: true });
  }
});
