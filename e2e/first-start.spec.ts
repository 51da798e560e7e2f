import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { startBuiltApp } from '../scripts/test-support/built-app.ts';
import { inventedPapers, recipeRows, tempDir, writeCorpusJsonl, writeRecordsJsonl } from '../scripts/test-support/fixtures.ts';
import { shots } from './helpers.ts';

/**
 * A newcomer's first start: the server imports ASSAY_CORPUS in the background while somebody without an account
 * opens the app. Every page answers meanwhile (the database runs on its own thread and the index build yields), a
 * banner on every page says which step the import is in and what it has read (no file names), and says when it
 * has finished. Latency targets are measured by `npm run bench -- first-start`, not asserted here.
 */
const port = String(Number(process.env.E2E_PORT ?? '3311') + 4);
const base = `http://127.0.0.1:${port}`;

test('pages answer during a first-start import, and a banner shows its progress to a visitor without an account', async ({ browser }) => {
  test.setTimeout(600_000);
  const corpus = tempDir('assay-first-start-corpus-');
  const papers = inventedPapers(1200, 'first-start');
  for (let f = 0; f < 12; f++) writeCorpusJsonl(corpus, `lab-secret-${f}.jsonl`, papers.slice(f * 100, f * 100 + 100));
  writeRecordsJsonl(corpus, 'sol-gel.jsonl', recipeRows);
  const dataDir = tempDir('assay-first-start-data-');
  let app: ChildProcess | null = startBuiltApp(port, { ASSAY_DATA_DIR: dataDir, ASSAY_CORPUS: corpus });
  // A visitor: no session cookie (the suite's other tests run signed in as the admin).
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  try {
    await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok ?? false, { timeout: 90_000, intervals: [200] }).toBe(true);
    await page.goto(`${base}/`);
    const banner = page.getByTestId('import-banner');
    await expect(banner).toHaveAttribute('data-state', 'running', { timeout: 30_000 });
    await expect(banner).toContainText('Filling the library for the first time');
    await expect(banner).toContainText(/step \d of 5/);
    await expect(banner).not.toContainText('lab-secret');
    await page.screenshot({ path: `${shots}/first-start-import.png` });

    // While it runs, the pages a newcomer opens first all answer, signed out.
    const seen: string[] = [];
    for (const route of ['/', '/library', '/search', '/graph', '/import', '/api/health']) {
      const t0 = Date.now();
      const res = await fetch(`${base}${route}`);
      expect(res.status, route).toBe(200);
      const status = await (await fetch(`${base}/api/import/status`)).json();
      seen.push(`${route} ${Date.now() - t0} ms (${status.imports[0]?.stage ?? 'import ended'})`);
    }
    console.log(`during the first-start import: ${seen.join('; ')}`);
    const status = await (await fetch(`${base}/api/import/status`)).json();
    expect(JSON.stringify(status)).not.toContain('lab-secret');
    expect(JSON.stringify(status)).not.toContain(corpus);
    // The job queue tells a visitor what the banner does: each job's kind and state, no file, host, process or id.
    const jobs = (await (await fetch(`${base}/api/jobs`)).json()) as { jobs: Record<string, unknown>[] };
    expect(JSON.stringify(jobs)).not.toContain('lab-secret');
    for (const job of jobs.jobs) expect(Object.keys(job).sort()).toEqual(['kind', 'shard', 'since', 'state']);

    // The banner follows the import to its end and says so.
    await expect(banner).toHaveAttribute('data-state', 'finished', { timeout: 240_000 });
    await expect(banner).toContainText('The import finished');
    await page.screenshot({ path: `${shots}/first-start-finished.png` });
    const health = await (await fetch(`${base}/api/health`)).json();
    expect(health.papers).toBe(papers.length);

    // The default embedder is the open model: a question right after the import is answered at once (on the n-gram
    // stand-in, or on the model over the papers whose shards have landed) while the model embeds the new passages in
    // the background, and the index says how far it has got; once every paper is embedded, dense search runs on the
    // model alone and the note is gone (no model in reach: the note says why instead).
    const ask = async () => {
      const { embedder, embedderNote } = (
        await (
          await fetch(`${base}/api/retrieve`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: base },
            body: JSON.stringify({ question: 'Which paper reports a sintering temperature of 1350 °C?', pipeline: 'vector' }),
          })
        ).json()
      ).index as { embedder: string; embedderNote?: string };
      return { embedder, embedderNote };
    };
    const first = await ask();
    expect(
      (first.embedder === 'bge-small-en-v1.5-q@onnx:256' && !first.embedderNote) ||
        /in the background|semantic search covers \d+% of papers|could not be had/.test(first.embedderNote ?? ''),
      JSON.stringify(first),
    ).toBe(true);
    // While it is incomplete, the banner says what share of the papers semantic search covers.
    const semantic = (await (await fetch(`${base}/api/import/status`)).json()).semanticSearch;
    if (semantic) {
      expect(semantic.papers.total).toBe(papers.length);
      await page.reload();
      await expect(page.getByTestId('semantic-search-progress')).toContainText(/Semantic search covers \d+% of papers|Semantic search is incomplete/);
      await page.screenshot({ path: `${shots}/first-start-semantic-search.png` });
    }
    if (!/could not be had/.test(first.embedderNote ?? ''))
      await expect
        .poll(async () => JSON.stringify(await ask()), { timeout: 240_000, intervals: [2000] })
        .toBe(JSON.stringify({ embedder: 'bge-small-en-v1.5-q@onnx:256' }));
  } finally {
    await context.close();
    if (app?.pid) {
      try {
        process.kill(-app.pid, 'SIGKILL');
      } catch {}
      app = null;
    }
    for (const d of [corpus, dataDir]) fs.rmSync(d, { recursive: true, force: true });
  }
});
