import fs from 'node:fs';
import path from 'node:path';
import { MockEmbeddingModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { embeddingCacheStore } from '../db/embeddings.ts';
import { evaluationResults, getEvaluationRun } from '../db/evaluation-runs.ts';
import { runIngest } from '../jobs/import-job.ts';
import { providerTextEmbedder } from '../embedding/provider.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { corpusPapers, extraPaper, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';
import { runEvaluationJob } from './evaluation-job.ts';
import type { EvaluationSummary } from './retrieval-eval.ts';

const testConfig = readConfig({});

let db: Database;
let dir: string;
beforeAll(async () => {
  db = await openTestDatabase();
  dir = tempDir();
  await runIngest(db, testConfig, [writeCorpusJsonl(dir, 'papers.jsonl', corpusPapers)], { trigger: 'cli' });
});
afterAll(async () => {
  await db?.close();
});

// Invented questions about the invented fixture papers (scripts/test-support/fixtures.ts).
const questions = [
  {
    id: 'q-doi',
    type: 'doi',
    question: 'Which paper reports a peak power density of 0.812 W cm−2 at 973 K for La0.6Sr0.4FeO3?',
    answer_doi: '10.9999/demo.sofc.2021.001',
    answer_paper_id: 'demo-sofc-01',
    evidence: { paper_id: 'demo-sofc-01', paragraph_id: 'demo-sofc-01:p1', text: null },
    source: 'Fixture',
  },
  {
    id: 'q-value',
    type: 'value',
    question: 'In "Sol-gel synthesis of spinel LiMn2O4 for lithium-ion batteries", at what temperature was the gel formed?',
    answer_value: '80 °C',
    answer_paper_id: 'demo-battery-02',
    evidence: { paper_id: 'demo-battery-02', paragraph_id: 'demo-battery-02:p2', text: null },
    source: 'Fixture',
  },
  { id: 'q-none', type: 'unanswerable', question: 'What is the Tafel slope of CoFeMoP/NF in 1 M KOH?', source: 'Fixture' },
];

describe('runEvaluationJob', () => {
  it('runs every question through every pipeline, stores results and the summary', async () => {
    const file = path.join(dir, 'questions.jsonl');
    fs.writeFileSync(file, questions.map((q) => JSON.stringify(q)).join('\n'));
    const service = createRetrievalService(db, readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' }));
    const { runId, summary } = await runEvaluationJob(db, service, { questionsFile: file, pipelines: ['json-qr', 'raw-dense'] });
    const run = await getEvaluationRun(db, runId);
    expect(run).toMatchObject({ status: 'succeeded', questions: 3, questionSet: 'questions.jsonl', pipelines: ['json-qr', 'raw-dense'] });
    expect((run!.summary as unknown as EvaluationSummary).questions).toBe(3);
    const m = summary.pipelines['json-qr'];
    expect(m).toMatchObject({ questions: 3, answerable: 2, doi_at_1: 1, value_at_3: 1, abstain_rate_unanswerable: 1, false_abstain_rate: 0 });
    expect(m.by_type.doi.questions).toBe(1);
    expect(Object.keys(m.by_source)).toEqual(['Fixture']);

    const all = await evaluationResults(db, runId);
    expect(all.total).toBe(6);
    const hits = await evaluationResults(db, runId, { pipeline: 'json-qr', outcome: 'hit' });
    expect(hits.rows.map((r) => r.questionId).sort()).toEqual(['q-doi', 'q-none', 'q-value']);
    const stored = await db.prisma.evaluationResult.findFirst({ where: { runId, pipeline: 'json-qr', questionId: 'q-doi' } });
    expect((stored!.detail as { gold: { doi: string } }).gold.doi).toBe('10.9999/demo.sofc.2021.001');
    expect((stored!.detail as { trace: { step: string }[] }).trace.map((t) => t.step)).toContain('optimise');
  });

  it('records a failed run with the reason when the question file is broken', async () => {
    const file = path.join(dir, 'broken.jsonl');
    fs.writeFileSync(file, '{"id": "x"}\n');
    const service = createRetrievalService(db, readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' }));
    await expect(runEvaluationJob(db, service, { questionsFile: file, pipelines: ['json-qr'] })).rejects.toThrow(/broken\.jsonl:1/);
  });

  it('refuses to score while the model still embeds the corpus, unless asked, and then says so on the run', async () => {
    const file = path.join(dir, 'questions.jsonl');
    fs.writeFileSync(file, questions.map((q) => JSON.stringify(q)).join('\n'));
    const service = createRetrievalService(db, readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' }));
    // The index the app serves while the model embeds in the background: the model pending, half way through.
    const model = { id: 'bge-test', dimensions: 2, embed: async () => [], progress: () => ({ done: 400, total: 1000 }) };
    const embedding = { ...service, index: async () => ({ ...(await service.index()), pendingEmbedder: model, embedderNote: 'bge-test is embedding' }) };
    let refusedId = '';
    await expect(runEvaluationJob(db, embedding, { questionsFile: file, pipelines: ['json-qr'] }, { onRunCreated: (id) => (refusedId = id) })).rejects.toThrow(
      /bge-test has embedded 400 of 1,000 passages \(40%\).*start it again once the model has finished/,
    );
    expect(await getEvaluationRun(db, refusedId)).toMatchObject({ status: 'failed', message: expect.stringMatching(/semantic search is incomplete/) });

    const { runId } = await runEvaluationJob(db, embedding, { questionsFile: file, pipelines: ['json-qr'], incompleteSemantic: true });
    const run = await getEvaluationRun(db, runId);
    expect(run).toMatchObject({ status: 'succeeded', settings: { embedderNote: expect.stringMatching(/has embedded 400 of 1,000 passages/) } });
  });

  it('rebuilds the index when the corpus changes', async () => {
    const service = createRetrievalService(db, readConfig({ ASSAY_DATA_DIR: dir, ASSAY_LOCAL_EMBEDDER: 'ngram' }));
    const before = await service.index();
    expect(await service.index()).toBe(before);
    await runIngest(db, testConfig, [writeCorpusJsonl(dir, 'extra.jsonl', [extraPaper])], { trigger: 'cli' });
    const after = await service.index();
    expect(after).not.toBe(before);
    expect(after.paragraphs.size).toBe(before.paragraphs.size + 1);
  });
});

describe('provider embeddings', () => {
  it('are cached by model id and text: a second pass does not call the provider, another model does', async () => {
    const vector = (t: string) => Array.from({ length: 4 }, (_, i) => (t.length + i) % 5);
    const make = (modelId: string) =>
      new MockEmbeddingModelV3({ modelId, maxEmbeddingsPerCall: 100, doEmbed: async ({ values }) => ({ embeddings: values.map(vector), warnings: [] }) });
    const cache = embeddingCacheStore(db);
    const a = make('a');
    const first = await providerTextEmbedder({ model: a, id: 'test/a', cache });
    const v1 = await first.embed(['nickel foam', 'ceria']);
    const callsAfterFirst = a.doEmbedCalls.length;
    const v2 = await first.embed(['nickel foam', 'ceria']);
    expect(a.doEmbedCalls.length).toBe(callsAfterFirst);
    expect(v2.map((v) => Array.from(v))).toEqual(v1.map((v) => Array.from(v)));
    // What is left to embed is counted from the keys alone.
    expect(await first.missing!(['nickel foam', 'ceria', 'zirconia'])).toBe(1);
    expect(Math.hypot(...v1[0])).toBeCloseTo(1, 5);
    const b = make('b');
    await (await providerTextEmbedder({ model: b, id: 'test/b', cache })).embed(['nickel foam']);
    expect(b.doEmbedCalls.flatMap((c) => c.values)).toContain('nickel foam');
    expect(await db.prisma.embedding.count({ where: { modelId: 'test/a' } })).toBe(2);
  });
});
