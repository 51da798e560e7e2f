import fs from 'node:fs';
import path from 'node:path';
import { readConfig } from '../../lib/config.ts';
import { openMigratedDatabase } from '../../lib/db/client.ts';
import { loadRetrievalCorpus, type RetrievalCorpus } from '../../lib/db/retrieval-corpus.ts';
import { loadQuestions } from '../../lib/evaluation/questions.ts';
import { percentile } from '../../lib/evaluation/retrieval-metrics.ts';
import { buildRetrievalIndex, type RetrievalIndex } from '../../lib/retrieval/index.ts';
import { releaseMemory } from '../../lib/common/release-memory.ts';
import { warmPaperCaches } from '../../lib/retrieval/paper-caches.ts';
import { isPipelineName, PIPELINES } from '../../lib/pipelines/registry.ts';
import { retrieve } from '../../lib/pipelines/run.ts';
import { rulesReformulator } from '../../lib/retrieval/reformulate.ts';
import { createEmbedders } from '../../lib/embedding/select.ts';
import { embedQueries } from '../../lib/embedding/embedder.ts';
import { sharedDataDir } from '../../lib/common/shared-data.ts';
import { cliOptions } from '../../lib/cli/options.ts';
import { timeStoredIndex } from './scale.ts';

/** Questions each pipeline answers before it is timed (see `benchRetrieval`). */
export const RETRIEVAL_WARM_UP = 10;

/**
 * `npm run bench -- retrieval`: builds the index of the configured database's corpus (load, embedder fit, build),
 * then times every pipeline on the questions (see the usage in bench.ts).
 */
export async function benchRetrieval(args: string[]) {
  const opt = cliOptions(args, ['questions', 'pipelines', 'repeat'], ['stored', 'steps']);
  const shared = sharedDataDir();
  const questionsFile = opt('questions') ?? (shared ? path.join(shared, 'questions-hard.dev.jsonl') : undefined);
  if (!questionsFile || !fs.existsSync(questionsFile)) throw new Error('give --questions <jsonl> (../shared/data is absent)');
  const pipelines = (opt('pipelines') ?? PIPELINES.join(',')).split(',').filter(isPipelineName);
  const repeat = Math.max(1, Number(opt('repeat') ?? 1));
  const cfg = readConfig({ ...process.env, ASSAY_REFORMULATION: 'rules' });
  const db = await openMigratedDatabase(cfg);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const mb = (b: number) => (b / 1048576).toFixed(0);
  try {
    const t0 = performance.now();
    let corpus: RetrievalCorpus | null = await loadRetrievalCorpus(db);
    const { recordCount, loadRecords, loadTuples } = corpus;
    const tLoad = performance.now();
    // Let go of once built (below): the function that lists the texts reads it, so it lives as long as this one.
    const embedders = await createEmbedders(db, cfg, () => corpus?.paragraphs.map((p) => p.text) ?? [], console.log);
    const embedder = embedders.passages;
    const tFit = performance.now();
    let built: RetrievalIndex | null = await buildRetrievalIndex(corpus, embedder, { nameEmbedder: embedders.names, embedderNote: embedders.note });
    const tBuild = performance.now();
    const s = (a: number, b: number) => ((b - a) / 1000).toFixed(1);
    console.log(
      `corpus           ${built.paragraphs.size} paragraphs, ${built.papers.size} papers, ${built.chunks.size} chunks, ${built.records.size} records (${db.kind})`,
    );
    console.log(
      `index build      ${s(t0, tBuild)} s = load ${s(t0, tLoad)} s + embedder fit ${s(tLoad, tFit)} s + build ${s(tFit, tBuild)} s (${embedder.id})`,
    );
    console.log(`  peak RSS       ${mb(peakRss)} MB`);
    corpus = null;
    // With --stored the questions are answered from the index read back, as the server's retrieval workers answer
    // them (they read the stored index; the thread that built it lets go of it).
    const stored = opt('stored') ? timeStoredIndex(built, { recordCount, loadRecords, loadTuples }) : null;
    const storedIndex = stored?.figures ?? null;
    const index: RetrievalIndex = stored?.index ?? built;
    built = null;
    if (stored) releaseMemory();
    // What the server computes of each paper once its index is built (lib/jobs/background.ts), before its questions.
    const tWarm = performance.now();
    await warmPaperCaches(index);
    console.log(`paper caches     ${s(tWarm, performance.now())} s, as the server warms them after the index`);
    const questions = await loadQuestions(questionsFile);
    // The question's embedding, timed on its own: uncached (the text with a trailing space is a new text of the
    // same tokens), one question at a time.
    const em: number[] = [];
    for (const q of questions) {
      const t = performance.now();
      await embedQueries(index.embedder, [`${q.question} `]);
      em.push(performance.now() - t);
    }
    console.log(`question embedding ${index.embedderId}: p50 ${percentile(em, 50).toFixed(1)} ms, p95 ${percentile(em, 95).toFixed(1)} ms (uncached)`);
    const out: Record<string, { p50: number; p95: number; max: number; warmUpMax: number }> = {};
    // The graph and records indexes are built on first use of their pipelines: time them separately (the
    // records one after the other pipelines, since it holds the most memory).
    let recordsSeconds: number | null = null;
    let graphSeconds: number | null = null;
    const graphPipelines = new Set(['graph', 'graph-keyword', 'aria', 'hybrid']);
    const order = [...pipelines.filter((x) => x !== 'records'), ...pipelines.filter((x) => x === 'records')];
    for (const [n, p] of order.entries()) {
      if (graphPipelines.has(p) && graphSeconds === null) {
        const g = await index.graph.get();
        graphSeconds = g.buildSeconds;
        console.log(
          `graph index      ${graphSeconds.toFixed(1)} s (${g.tuples.size} tuples, ${g.entities.length} canonical entities), built on first use of a graph pipeline`,
        );
      }
      if (p === 'records') {
        const records = await index.records.get();
        recordsSeconds = records.buildSeconds;
        console.log(
          `records index    ${recordsSeconds.toFixed(1)} s, built on first use of the records pipeline into a file of ${mb(records.bytes)} MB, read a term and a record at a time`,
        );
      }
      // Every question is new to every pipeline, as a first-time question is to the server: the vectors are asked
      // for under texts of this pipeline's own (trailing spaces, the same tokens), so the latency includes the
      // question's embedding as the pipeline waits for it, overlapped with its other work as in the app.
      let spaces = '';
      let round = 0;
      const newTexts = () => {
        spaces = ' '.repeat(2 + n * (repeat + 1) + round++);
      };
      const embedder = index.embedder;
      const fresh = {
        ...index,
        embedder: {
          ...embedder,
          embedQuery: (texts: string[]) =>
            embedQueries(
              embedder,
              texts.map((t) => t + spaces),
            ),
        },
      };
      newTexts();
      // A server answers most questions long after its first: the first few after a start pay for compiling the
      // pipeline's code (two to three times slower), so they are timed apart, on other texts.
      const warmUp: number[] = [];
      for (const q of questions.slice(0, RETRIEVAL_WARM_UP))
        warmUp.push((await retrieve(fresh, `${q.question}.`, p, { reformulator: rulesReformulator })).latencyMs);
      const lat: number[] = [];
      // With --steps: each traced step's time per question (a step run twice in a question counts once, summed).
      const steps = new Map<string, number[]>();
      for (let r = 0; r < repeat; r++) {
        newTexts();
        for (const q of questions) {
          const result = await retrieve(fresh, q.question, p, { reformulator: rulesReformulator });
          lat.push(result.latencyMs);
          const perQuestion = new Map<string, number>();
          for (const t of result.trace) perQuestion.set(t.step, (perQuestion.get(t.step) ?? 0) + t.ms);
          for (const [name, ms] of perQuestion) steps.set(name, [...(steps.get(name) ?? []), ms]);
        }
      }
      out[p] = { p50: percentile(lat, 50), p95: percentile(lat, 95), max: Math.max(...lat), warmUpMax: Math.max(...warmUp) };
      console.log(
        `${p.padEnd(16)} ${lat.length} questions: p50 ${out[p].p50.toFixed(1)} ms, p95 ${out[p].p95.toFixed(1)} ms, max ${out[p].max.toFixed(1)} ms, the question's embedding included (first ${warmUp.length} after the start: max ${out[p].warmUpMax.toFixed(1)} ms)`,
      );
      if (opt('steps'))
        for (const [name, ms] of [...steps].sort((a, b) => percentile(b[1], 95) - percentile(a[1], 95)).slice(0, 12))
          console.log(
            `  step ${name.padEnd(22)} p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms`,
          );
    }
    console.log(`peak RSS         ${mb(peakRss)} MB`);
    console.log(
      JSON.stringify({
        embedderId: index.embedderId,
        indexSeconds: Number(s(t0, tBuild)),
        graphIndexSeconds: graphSeconds,
        recordsIndexSeconds: recordsSeconds,
        latencyMs: out,
        questionEmbeddingMs: { p50: percentile(em, 50), p95: percentile(em, 95) },
        peakRssMb: Number(mb(peakRss)),
        ...(storedIndex ? { storedIndex } : {}),
      }),
    );
  } finally {
    clearInterval(sampler);
    await db.close();
  }
}
