import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPgliteDatabase } from '../db/pglite.ts';
import { DatabaseLockedError } from '../db/process-lock.ts';
import { corpusPapers, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';
import { databaseDigest } from '../../scripts/test-support/database.ts';
import fs from 'node:fs';

const root = path.resolve(import.meta.dirname, '../..');

// The kill below waits for a progress line (one every 2 s) with papers in it, so the import stage must last several
// seconds: 3,000 papers of one paragraph, one new paper to a statement (in batches of 50 it ended within the first
// 2 s; a batched import stopped mid-way is tested in lib/ingest/pipeline.db.test.ts).
function ingest(dataDir: string, args: string[], env: Record<string, string> = {}) {
  // One process (no tsx wrapper process), so SIGKILL really kills the importer.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'lib/cli/ingest.ts'), ...args], {
    cwd: root,
    env: { ...process.env, ASSAY_DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, done, out: () => out, err: () => err };
}

async function digestOf(dataDir: string) {
  const db = await openPgliteDatabase(dataDir);
  try {
    return await databaseDigest(db);
  } finally {
    await db.close();
  }
}

const PAPERS = 3000;

describe('npm run ingest (embedded database)', () => {
  it('writes the JSON summary, refuses a second process, and survives SIGKILL mid-run', async () => {
    const fixtures = tempDir();
    const many = Array.from({ length: PAPERS }, (_, i) => ({
      ...structuredClone(corpusPapers[0]),
      id: `kill-${i}`,
      doi: `10.9999/kill.${i}`,
      paragraphs: [{ id: null, section: 'Abstract', text: `Cathode ${i} reached ${500 + i} mW cm−2 at 700 °C after firing at ${900 + (i % 300)} °C.` }],
    }));
    const corpus = writeCorpusJsonl(fixtures, 'many.jsonl', many);

    // Reference: one uninterrupted run, with the --json summary.
    const reference = tempDir();
    const summaryFile = path.join(fixtures, 'summary.json');
    const ok = ingest(reference, ['--json', summaryFile, corpus]);
    expect(await ok.done).toBe(0);
    expect(ok.out()).toMatch(new RegExp(`papers: +${PAPERS} added, 0 updated, 0 unchanged`));
    const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
    expect(summary).toMatchObject({ papers: PAPERS, paragraphs: PAPERS, records: 0, errors: 0 });
    expect(summary.seconds).toBeGreaterThan(0);

    // Kill -9 partway through, check the lock while it runs, then re-run.
    const victim = tempDir();
    const run = ingest(victim, [corpus], { ASSAY_IMPORT_BATCH_PAPERS: '1' });
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (/progress: .* [1-9]\d* papers/.test(run.err())) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
      run.done.then(() => {
        clearInterval(timer);
        reject(new Error(`ingest ended before it could be killed: ${run.err()}`));
      });
    });
    await expect(openPgliteDatabase(victim)).rejects.toBeInstanceOf(DatabaseLockedError);
    run.child.kill('SIGKILL');
    await run.done;
    const partial = await digestOf(victim);
    expect(partial.papers.length).toBeGreaterThan(0);
    expect(partial.papers.length).toBeLessThan(PAPERS);

    const rerun = ingest(victim, [corpus]);
    expect(await rerun.done).toBe(0);
    expect(await digestOf(victim)).toEqual(await digestOf(reference));
  }, 240_000);
});
