import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { runIngest } from '../jobs/import-job.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../scripts/test-support/fixture-corpus.ts';
import { extraPaper, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';
import { createRetrievalService } from './retrieval-service.ts';
import { plainParagraphs } from '../../scripts/test-support/retrieval-fixtures.ts';

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

describe('the retrieval service across a restart', () => {
  it('reads its index back from the snapshot the last process stored, and builds again when the corpus changed', async () => {
    const cfg = readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' });
    const snapshotDir = path.join(dir, 'index');
    const service = (stages: string[]) => createRetrievalService(db, cfg, { snapshotDir, onStage: (s) => stages.push(s) });
    const first: string[] = [];
    const before = service(first);
    const built = await before.index();
    expect(first).toContain('loading corpus');
    // Stored after the index is handed out.
    const kept = () => fs.readdirSync(snapshotDir).filter((f) => f.endsWith('.v8'));
    await expect.poll(() => kept().length, { timeout: 10_000 }).toBe(1);
    // The graph index is kept once it has been built (on first use).
    const graph = await built.graph.get();
    expect(graph.tuples.size).toBeGreaterThan(0);
    await expect.poll(() => kept().filter((f) => f.startsWith('graph-')).length, { timeout: 10_000 }).toBe(1);

    const second: string[] = [];
    const restarted = service(second);
    const read = await restarted.index();
    expect(second).toEqual(['reading the stored index']);
    expect(read).not.toBe(built);
    expect(plainParagraphs(read.paragraphs)).toEqual(plainParagraphs(built.paragraphs));
    // Read back, not built again: the same tuples, and the build time of the process that built it.
    const readGraph = await read.graph.get();
    expect(readGraph.tuples).toEqual(graph.tuples);
    expect(readGraph.buildSeconds).toBe(graph.buildSeconds);
    const shown = (r: Awaited<ReturnType<typeof before.retrieve>>) => ({ papers: r.papers, evidence: r.evidence, abstention: r.abstention });
    for (const pipeline of ['json-qr', 'hybrid', 'graph', 'records'] as const)
      expect(shown(await restarted.retrieve(question, pipeline))).toEqual(shown(await before.retrieve(question, pipeline)));

    await runIngest(db, cfg, [writeCorpusJsonl(dir, 'extra.jsonl', [extraPaper])], { trigger: 'cli' });
    const third: string[] = [];
    const after = await service(third).index();
    expect(third).toContain('loading corpus');
    expect(after.paragraphs.size).toBe(built.paragraphs.size + 1);
  });
});
