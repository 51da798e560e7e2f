import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { Tokenizer } from '@huggingface/tokenizers';
import { cliOptions } from '../../lib/cli/options.ts';
import { sharedDataDir } from '../../lib/common/shared-data.ts';
import { readConfig } from '../../lib/config.ts';
import { loadRetrievalCorpus } from '../../lib/db/retrieval-corpus.ts';
import { openScratchPostgres } from '../../lib/db/scratch-postgres.ts';
import { applyPendingMigrations } from '../../lib/db/migrations.ts';
import { BGE_MODEL, ensureModel } from '../../lib/embedding/bge-model.ts';
import { createBgeEmbedder } from '../../lib/embedding/onnx-bge.ts';
import { createLentEmbedders } from '../../lib/embedding/select.ts';
import { embedInShards } from '../../lib/embedding/shards.ts';
import { runIngest } from '../../lib/jobs/import-job.ts';
import { measurePeak, type PeakFigure } from './onnx-peak.ts';
import { startWorkers, stopWorkers } from './workers.ts';

export const embeddingUsage = 'npm run bench -- embedding [--papers 300] [--workers 1,2] [--postgres <admin url>] [--per-shard 500] [--json out.json]';

/**
 * `npm run bench -- embedding`: how fast the default model embeds passages on this machine, against what its cores
 * could do at most. On the first `--papers` papers of the shared corpus it counts the tokens the model reads (cut at
 * its limit), the arithmetic they take (bge-small's layers: multiply-adds per token in the linear layers, plus
 * attention's, which grows with the length), embeds them in this process and compares the rate with the measured
 * peak of the same runtime's 8-bit matrix product on the same threads (onnx-peak.ts).
 *
 * With `--postgres` it then imports those papers into a throw-away database and embeds them as shards (the app's
 * embedding stage, lib/embedding/shards.ts) taken by 1, then 2 `npm run worker` processes (`--workers`), each
 * from nothing: whether two workers on the same cores are slower than one.
 */

// bge-small-en-v1.5: 12 layers, hidden size 384, feed-forward 1,536 (the model card's configuration).
const LAYERS = 12;
const HIDDEN = 384;
const FEED_FORWARD = 1536;
/** Multiply-adds per token in the linear layers: Q, K, V and the output projection (4·d²), and the feed-forward (2·d·f). */
const LINEAR_MACS_PER_TOKEN = LAYERS * (4 * HIDDEN * HIDDEN + 2 * HIDDEN * FEED_FORWARD);

/** Operations (2 per multiply-add) to embed a text of `n` tokens: the linear layers, and attention's QKᵀ and AV (2·n·d each token). */
export const embeddingOps = (n: number): number => 2 * (n * LINEAR_MACS_PER_TOKEN + LAYERS * 2 * n * n * HIDDEN);

async function samplePapers(file: string, papers: number): Promise<string[]> {
  const lines: string[] = [];
  const input = readline.createInterface({ input: fs.createReadStream(file).pipe(zlib.createGunzip()), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of input) {
    if (line.trim()) lines.push(line);
    if (lines.length >= papers) break;
  }
  input.close();
  return lines;
}

interface WorkerRun {
  workers: number;
  paragraphs: number;
  seconds: number;
  paragraphsPerSecond: number;
  shards: number;
}

export async function benchEmbedding(args: string[]): Promise<void> {
  const opt = cliOptions(args, ['papers', 'workers', 'postgres', 'per-shard', 'json'] as const);
  const papers = Number(opt('papers') ?? 300);
  const workerCounts = (opt('workers') ?? '1,2').split(',').map(Number);
  const perShard = Number(opt('per-shard') ?? 500);
  const corpusFile = sharedDataDir('corpus/papers.jsonl.gz');
  if (!corpusFile) throw new Error('bench embedding reads the shared corpus (../shared/data/corpus/papers.jsonl.gz, or ASSAY_SHARED_DATA): it is not there');
  const cfg = readConfig(process.env);
  const files = await ensureModel(cfg.dataDir, cfg.modelRepository, { log: (l) => console.log(l) });
  const lines = await samplePapers(corpusFile, papers);
  const texts = lines.flatMap((l) =>
    ((JSON.parse(l) as { paragraphs?: { text?: string }[] }).paragraphs ?? []).map((p) => p.text ?? '').filter((t) => t.trim()),
  );

  // The tokens the model reads: its tokenizer, each text cut at the model's limit as the model's thread cuts it.
  const tokenizer = new Tokenizer(JSON.parse(fs.readFileSync(files.tokenizer, 'utf8')), {});
  const lengths = texts.map((t) => Math.min(tokenizer.encode(t).ids.length, BGE_MODEL.maxTokens));
  const tokens = lengths.reduce((a, b) => a + b, 0);
  const ops = lengths.reduce((a, n) => a + embeddingOps(n), 0);

  const threads = Math.max(1, Math.min(4, os.availableParallelism()));
  // The peak first, on quiet cores: the best of 20 runs of each shape (the model's linear layers, and a square one).
  const peak: PeakFigure[] = [
    await measurePeak(
      'int8',
      threads,
      [
        [1024, HIDDEN, FEED_FORWARD],
        [1024, FEED_FORWARD, HIDDEN],
        [1024, 1024, 1024],
      ],
      20,
    ),
    await measurePeak('float', threads, [[1024, 1024, 1024]], 20),
  ];
  const model = await createBgeEmbedder(files);
  await model.embed(texts.slice(0, 16));
  const t0 = performance.now();
  await model.embed(texts);
  const seconds = (performance.now() - t0) / 1000;
  await model.close();

  const achieved = ops / seconds / 1e9;
  const inProcess = {
    papers: lines.length,
    paragraphs: texts.length,
    tokens,
    meanTokens: Math.round(tokens / texts.length),
    gigaOpsPerParagraph: Math.round((ops / texts.length / 1e9) * 1000) / 1000,
    seconds: Math.round(seconds * 10) / 10,
    paragraphsPerSecond: Math.round((texts.length / seconds) * 10) / 10,
    tokensPerSecond: Math.round(tokens / seconds),
    achievedGops: Math.round(achieved),
    peakInt8Gops: Math.round(peak[0].gops),
    peakFloatGops: Math.round(peak[1].gops),
    shareOfPeak: Math.round((achieved / peak[0].gops) * 1000) / 1000,
    limitParagraphsPerSecond: Math.round((peak[0].gops * 1e9) / (ops / texts.length)),
  };
  console.log(`model ${BGE_MODEL.id}, ${threads} threads on ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'})`);
  console.log(
    `${texts.length} paragraphs of ${lines.length} papers: ${tokens} tokens (mean ${inProcess.meanTokens}, cut at ${BGE_MODEL.maxTokens}), ${inProcess.gigaOpsPerParagraph} G operations a paragraph`,
  );
  console.log(
    `in one process: ${inProcess.seconds} s, ${inProcess.paragraphsPerSecond} paragraphs/s, ${inProcess.tokensPerSecond} tokens/s, ${inProcess.achievedGops} G operations/s`,
  );
  console.log(
    `measured peak of the runtime's matrix product on ${threads} threads: int8 ${inProcess.peakInt8Gops} G operations/s (shape ${peak[0].shape.join('×')}), float ${inProcess.peakFloatGops}`,
  );
  console.log(
    `the model runs at ${(inProcess.shareOfPeak * 100).toFixed(1)}% of the int8 peak; at the peak it would embed ${inProcess.limitParagraphsPerSecond} paragraphs/s`,
  );

  const runs: WorkerRun[] = [];
  const admin = opt('postgres');
  if (admin) {
    const db = await openScratchPostgres(admin);
    try {
      await applyPendingMigrations(db);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-bench-embedding-'));
      fs.writeFileSync(path.join(dir, 'papers.jsonl'), `${lines.join('\n')}\n`);
      const pgCfg = readConfig({ ...process.env, DATABASE_URL: db.url, ASSAY_ENRICHMENT: 'off' });
      await runIngest(db, readConfig({ ...process.env, DATABASE_URL: db.url, ASSAY_ENRICHMENT: 'off', ASSAY_LOCAL_EMBEDDER: 'ngram' }), [dir], {
        trigger: 'cli',
      });
      const paragraphs = (await loadRetrievalCorpus(db)).paragraphs;
      const following = (await createLentEmbedders(db, pgCfg)).passages;
      if (!following) throw new Error('the model could not be loaded for the shards');
      const env = { ...process.env, DATABASE_URL: db.url, ASSAY_DATA_DIR: cfg.dataDir, ASSAY_ENRICHMENT: 'off', ASSAY_JOB_POLL_SECONDS: '0.2' };
      for (const n of workerCounts) {
        await db.prisma.$executeRawUnsafe(`DELETE FROM "Embedding"`);
        await db.prisma.job.deleteMany({ where: { kind: 'embedding-shard' } });
        const children = await startWorkers(n, env);
        try {
          const w0 = performance.now();
          const end = await embedInShards(db, paragraphs, following, { onCovered: () => {}, pollMs: 200, perShard });
          const s = (performance.now() - w0) / 1000;
          if (end.passages.done !== paragraphs.length) throw new Error(`${n} worker(s) embedded ${end.passages.done} of ${paragraphs.length} passages`);
          const run = {
            workers: n,
            paragraphs: paragraphs.length,
            seconds: Math.round(s * 10) / 10,
            paragraphsPerSecond: Math.round((paragraphs.length / s) * 10) / 10,
            shards: await db.prisma.job.count({ where: { kind: 'embedding-shard' } }),
          };
          runs.push(run);
          console.log(
            `${n} npm run worker process(es): ${run.shards} shards, ${run.paragraphs} paragraphs in ${run.seconds} s, ${run.paragraphsPerSecond} paragraphs/s`,
          );
        } finally {
          await stopWorkers(children);
        }
      }
    } finally {
      await db.close();
    }
  }
  const out = { model: BGE_MODEL.id, threads, cores: os.availableParallelism(), inProcess, workers: runs };
  console.log(JSON.stringify(out));
  const json = opt('json');
  if (json) fs.writeFileSync(json, `${JSON.stringify(out, null, 2)}\n`);
  process.exit(0);
}
