import { type AssayConfig, readConfig } from '../../lib/config.ts';
import type { Database } from '../../lib/db/database.ts';
import { embeddingShardJob } from '../../lib/embedding/shards.ts';
import { runIngest } from '../../lib/jobs/import-job.ts';
import { startJobWorker, stopAllBackgroundWork } from '../../lib/queue/queue.ts';
import { openTestDatabase } from './database.ts';
import { type FakeOpenAI, startFakeOpenAI } from './fake-openai.ts';
import { inventedPapers, tempDir, writeCorpusJsonl } from './fixtures.ts';

/**
 * A database holding `papers` invented papers, a model served as a local OpenAI-compatible embeddings endpoint (a
 * real provider adapter over HTTP, with a made-up model, `embeddingDelayMs` per batch), the configuration that
 * selects it, and this process's job worker taking embedding shards: what the tests of the model's first pass over a
 * corpus start from (lib/embedding/shard-progress.db.test.ts, lib/serving/dense-growth.db.test.ts).
 */
export interface EmbeddingShardsFixture {
  db: Database;
  fake: FakeOpenAI;
  cfg: AssayConfig;
  close(): Promise<void>;
}

export async function startEmbeddingShards(opts: { papers: number; prefix: string; embeddingDelayMs?: number }): Promise<EmbeddingShardsFixture> {
  const db = await openTestDatabase();
  const fake = await startFakeOpenAI(() => '', opts.embeddingDelayMs ? { embeddingDelayMs: opts.embeddingDelayMs } : {});
  const cfg = readConfig({ ASSAY_LLM_BASE_URL: fake.base, ASSAY_EMBEDDING_MODEL: 'fake-embedder', ASSAY_JOB_POLL_SECONDS: '0.05', ASSAY_ENRICHMENT: 'off' });
  const dir = tempDir(`assay-${opts.prefix}-`);
  await runIngest(db, readConfig({ ASSAY_ENRICHMENT: 'off' }), [writeCorpusJsonl(dir, 'papers.jsonl', inventedPapers(opts.papers, opts.prefix))], {
    trigger: 'cli',
  });
  await startJobWorker(db, cfg, [embeddingShardJob]);
  return {
    db,
    fake,
    cfg,
    close: async () => {
      stopAllBackgroundWork();
      await fake.close();
      await db.close();
    },
  };
}
