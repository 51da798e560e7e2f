import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAnswer } from '../answer/answer.ts';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { runIngest } from '../jobs/import-job.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../scripts/test-support/fixture-corpus.ts';
import { inventedPapers, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';
import { corpusBeingWritten } from './app-service.ts';
import { createRetrievalService, type RetrievalService } from './retrieval-service.ts';
import type { RetrievalResult } from '../pipelines/types.ts';

/**
 * The app's retrieval service while an import writes the corpus (stale-serving.ts): questions are answered at once
 * from the last index ready, saying so, and no index of a half-imported corpus is built; once the import has ended,
 * the next question is answered from the new index, and a change no job makes is seen by the next question.
 */
let db: Database;
let dir: string;
beforeAll(async () => {
  db = await openTestDatabase();
  dir = tempDir();
  await ingestFixtureCorpus(db);
});
afterAll(async () => {
  await db?.close();
});

const question = 'Which paper reports a peak power density of 0.812 W cm−2 at 973 K for La0.6Sr0.4FeO3?';
// One paper to a statement, so the import bumps the corpus stamp a few hundred times.
const cfg = () => readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram', ASSAY_IMPORT_BATCH_PAPERS: '1' });

/** Asks one question after another (25 ms apart) while `importing` runs; what each answer said of its index and which stages ran meanwhile. */
async function askWhile(service: RetrievalService, importing: Promise<unknown>, stages: string[]) {
  let done = false;
  // The stages run until the import ended (a question after it may start the new index's build).
  let stagesDuring: string[] = [];
  void importing.finally(() => {
    done = true;
    stagesDuring = [...stages];
  });
  const answers: Pick<RetrievalResult, 'indexNotice' | 'papers'>[] = [];
  // What the screen says of the index right after the first answer from an earlier one (mid-import).
  let shownWithFirstStale: number | null = null;
  while (!done) {
    const answer = await service.retrieve(question, 'hybrid');
    answers.push(answer);
    if (answer.indexNotice && shownWithFirstStale === null) shownWithFirstStale = (await service.info()).paragraphs;
    // A person's pace rather than a tight loop, which would keep the embedded database's one thread from the import.
    await new Promise((r) => setTimeout(r, 25));
  }
  await importing;
  return { answers, stagesDuring, shownWithFirstStale };
}

/** Asks until an answer comes from the current index (none of `indexNotice`), at most `ms`. */
async function askUntilCurrent(service: RetrievalService, ms: number): Promise<RetrievalResult> {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await new Promise((r) => setTimeout(r, 200))) {
    const r = await service.retrieve(question, 'hybrid');
    if (!r.indexNotice) return r;
  }
  throw new Error(`still answered from an earlier index after ${ms} ms`);
}

describe('questions while the corpus changes', () => {
  it('on the server thread: answered from the index before the import, which builds no index of a half-imported corpus; then from the new one', async () => {
    const stages: string[] = [];
    const service = createRetrievalService(db, cfg(), { staleWhileBuilding: { writing: corpusBeingWritten(db, cfg()) }, onStage: (s) => stages.push(s) });
    const first = await service.retrieve(question, 'hybrid');
    expect(first.indexNotice).toBeUndefined();
    const before = (await service.info()).paragraphs;
    stages.length = 0;

    const file = writeCorpusJsonl(dir, 'busy.jsonl', inventedPapers(120, 'busy'));
    const { answers, stagesDuring, shownWithFirstStale } = await askWhile(service, runIngest(db, cfg(), [file], { trigger: 'cli' }), stages);
    // No index was built while the import wrote (before, every question built one of the corpus as it then was).
    expect(stagesDuring).toEqual([]);
    const stale = answers.filter((a) => a.indexNotice);
    expect(stale.length).toBeGreaterThan(0);
    expect(stale[0].indexNotice).toBe(
      `An import or another job is changing the corpus: this searched the index from before it (${before.toLocaleString('en')} paragraphs); what it adds is searched once it has finished.`,
    );
    expect(answers.every((a) => a.papers[0]?.doi === first.papers[0]?.doi)).toBe(true);
    // The screen describes the index the answer came from, without waiting for a build.
    expect(shownWithFirstStale).toBe(before);

    // Once the import has ended (its stamp read may be half a second old), one build, and answers from it.
    const current = await askUntilCurrent(service, 10_000);
    expect(current.papers[0]?.doi).toBe(first.papers[0]?.doi);
    expect((await service.info()).paragraphs).toBe(before + 240);
    expect(stages.filter((s) => s === 'loading corpus')).toHaveLength(1);

    // A change no job makes (a curator's) is waited for by the next question, which sees it.
    await db.prisma.paper.delete({ where: { doi: '10.9999/busy.0' } });
    await new Promise((r) => setTimeout(r, 600));
    const after = await service.retrieve(question, 'hybrid');
    expect(after.indexNotice).toBeUndefined();
    expect((await service.info()).paragraphs).toBe(before + 238);

    // An answer composed from an earlier index carries its notice.
    const answer = await composeAnswer({ ...first, indexNotice: stale[0].indexNotice });
    expect(answer.notice).toBe(stale[0].indexNotice);
  }, 120_000);

  it('with retrieval workers: they keep answering from the index they serve while the import writes, then serve the new one', async () => {
    const logged: string[] = [];
    const snapshotDir = path.join(dir, 'index-workers');
    const service = createRetrievalService(db, cfg(), {
      snapshotDir,
      workers: 1,
      staleWhileBuilding: { writing: corpusBeingWritten(db, cfg()) },
      onStage: (s) => logged.push(s),
    });
    try {
      await service.whenServing();
      const first = await service.retrieve(question, 'hybrid');
      expect(first.trace[0].step).toBe('worker');
      const before = (await service.info()).paragraphs;
      logged.length = 0;

      const file = writeCorpusJsonl(dir, 'busy-workers.jsonl', inventedPapers(120, 'busy-workers'));
      const { answers, stagesDuring } = await askWhile(service, runIngest(db, cfg(), [file], { trigger: 'cli' }), logged);
      expect(stagesDuring).toEqual([]);
      expect(answers.some((a) => a.indexNotice?.includes(`(${before.toLocaleString('en')} paragraphs)`))).toBe(true);

      const current = await askUntilCurrent(service, 30_000);
      expect(current.trace[0].step).toBe('worker');
      expect((await service.info()).paragraphs).toBe(before + 240);
    } finally {
      await service.close();
    }
  }, 180_000);
});
