import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPgliteDatabase } from '../../lib/db/pglite.ts';
import { applyPendingMigrations } from '../../lib/db/migrations.ts';
import type { Database } from '../../lib/db/database.ts';
import { openScratchPostgres } from '../../lib/db/scratch-postgres.ts';
import { runIngest } from '../../lib/jobs/import-job.ts';
import { sharedDataDir } from '../../lib/common/shared-data.ts';
import { readConfig } from '../../lib/config.ts';
import { openMigratedDatabase } from '../../lib/db/client.ts';
import { loadQuestions } from '../../lib/evaluation/questions.ts';
import { percentile } from '../../lib/evaluation/retrieval-metrics.ts';
import { isPipelineName } from '../../lib/pipelines/registry.ts';
import { answerQuestion, DEFAULT_ANSWER_PIPELINE } from '../../lib/answer/answer.ts';
import { createRetrievalService } from '../../lib/serving/retrieval-service.ts';
import { benchFusion, fusionUsage } from './fusion.ts';
import { cliOptions } from '../../lib/cli/options.ts';
import { benchLoad, loadUsage } from './load.ts';
import { benchFuzzQuestions, fuzzUsage as fuzzQuestionsUsage } from './fuzz-questions.ts';
import { benchFuzz, fuzzUsage } from './fuzz.ts';
import { benchTagger, taggerUsage } from './tagger.ts';
import { benchFirstStart, firstStartUsage } from './first-start.ts';
import { benchRestart, restartUsage } from './restart.ts';
import { benchScale, scaleUsage } from './scale.ts';
import { benchScaleOut, scaleOutUsage } from './scale-out.ts';
import { benchEmbedding, embeddingUsage } from './embedding.ts';
import { benchStages, stagesUsage } from './stages.ts';
import { benchRetrieval, RETRIEVAL_WARM_UP } from './retrieval.ts';
import { acquireProcessLock } from '../../lib/db/process-lock.ts';
import { clearGraph } from '../../lib/db/graph.ts';
import { buildGraph } from '../../lib/graph/build.ts';
import { canonicalizeWithConfiguredEmbedder } from '../../lib/graph/canonicalize.ts';
import { configuredTupleExtractor } from '../../lib/graph/select.ts';

const usage = `usage: npm run bench -- ingest [--postgres <admin url>] [path ...]
       npm run bench -- retrieval [--questions <jsonl>] [--pipelines a,b] [--repeat n] [--stored] [--steps]
       npm run bench -- answer [--questions <jsonl>] [--pipeline name]
       npm run bench -- graph
       ${loadUsage}
       ${fuzzQuestionsUsage}
       ${fuzzUsage}
       ${taggerUsage}
       ${firstStartUsage}
       ${restartUsage}
       ${scaleUsage}
       ${scaleOutUsage}
       ${embeddingUsage}
       ${stagesUsage}
       ${fusionUsage}

ingest: imports the given files/folders (default ../shared/data) into a fresh database (a new embedded PGlite in
a temporary folder, or a throw-away database on the PostgreSQL server given), then imports them again, and
prints seconds, throughput and peak memory of both runs.

retrieval: on the configured database (ASSAY_DATA_DIR / DATABASE_URL), builds the retrieval index (load, embedder
fit, build; the records index separately) and answers the questions (default ../shared/data/questions-hard.dev.jsonl)
with each pipeline, printing index build seconds, the question embedding's p50/p95 (uncached), latency p50/p95/max
per pipeline of questions it has not seen, their embedding included, once warm (the paper caches the server warms
after its index are computed first, then the first ${RETRIEVAL_WARM_UP} questions after
the start are timed apart; model calls excluded: the offline reformulator is used) and peak memory. --steps adds,
per pipeline, the p50/p95 of each traced step (the slowest twelve by p95).

answer: on the configured database, with the index warm, answers the questions (extractive, default pipeline
hybrid) and prints the time to the first evidence, to the first answer text and to the whole answer (p50/p95/max).

graph: on a scratch copy of the embedded database (ASSAY_DATA_DIR), deletes the graph and builds it from nothing
(tuple extraction and canonical clustering, as graph:build does), then once more (nothing changed: incremental),
and prints the seconds of each phase and peak memory. The database itself is not touched.

load: many clients at once against a production server (one it starts on a copy of the data folder, or --url):
errors, p50/p95 alone and together, throughput and the server's peak memory.

fuzz-questions: hostile but well-formed questions (a formula, unit, range, exponent or ± repeated to the length limit,
runs of brackets, dots, commas, dashes and whitespace, random mixtures) sent one at a time to every pipeline and every
route a person's text reaches on a production server (one it starts on a copy of the data folder, or --url), while
/api/health is polled: the slowest route per kind and kind per route, every failure, the health check's worst latency,
the server's memory before, at its peak and after, and retrieval workers replaced. With --concurrent N: N clients, each
from its own address, send 2,000-character questions to the graph pipeline and the answer route while one visitor asks
ordinary questions; the visitor's p50/p95 and failures, what the attackers got, health and worker restarts.

fuzz: the readers' seeded corruptions of every import format (the fuzz test's cases), timed: per format the
median and the slowest case with its seed and mutation, and any unexpected exception.

tagger: the clause chunker of the prose tuples against compromise on paragraphs of the shared corpus: speed, and
agreement on verbs and chemical formulas (why the graph build does not tag with compromise).

first-start: a production server on an empty data folder importing ASSAY_CORPUS (default the shared corpus and
records) while / and /api/health are asked four times a second: time to the first page, import time, the pages'
p50/p95/max overall and per import stage, and the first questions' time once the import has warmed the indexes.

restart: a production server on a copy of the data folder, started twice: without a stored index (it builds and
keeps it), then again (it reads it back): when each answered /api/health and its first question, and its memory.

scale: corpora of N copies of the shared one (identifiers new, numbers perturbed), each imported into a fresh
database and measured by \`bench retrieval --stored\` in a process of its own: the cost-growth table 1× → N×.
(\`retrieval --stored\` also writes the built index as the server keeps it, times reading it back, and answers the
questions from the index read back, as the server's retrieval workers do.)

scale-out: the deployment for growing past one machine, on this one: a corpus of --factor copies imported once into
its own database on a PostgreSQL server (kept for later runs), the graph in a Neo4j server, then 1, 2, 3 production
app processes (ASSAY_SEARCH=database) behind a round-robin proxy with one \`npm run worker\`, and 50 clients:
questions/s, p50/p95 per pipeline, errors, RSS per process, the database's and Neo4j's CPU and memory.

embedding: the default model's rate on the first papers of the shared corpus (tokens, operations, paragraphs/s)
against the measured peak of the runtime's 8-bit matrix product on the same threads; with --postgres, the same
papers embedded as shards by 1, then 2 \`npm run worker\` processes.

stages: the structuring and graph stages on a throw-away PostgreSQL database of --factor copies of the shared
corpus, from nothing: run whole (the baseline), then as shards with 0, 1, 2 \`npm run worker\` processes beside the
import job: seconds per stage, shards the workers took, and whether each run stored what the baseline did.`;

async function benchIngest(args: string[]) {
  let pgUrl: string | null = null;
  const inputs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--postgres') pgUrl = args[++i];
    else inputs.push(args[i]);
  }
  if (inputs.length === 0) {
    const shared = sharedDataDir();
    if (!shared) throw new Error('no paths given and ../shared/data (or ASSAY_SHARED_DATA) is absent');
    inputs.push(shared);
  }
  for (const p of inputs) if (!fs.existsSync(p)) throw new Error(`no such path: ${p}`);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-bench-'));
  const t0 = performance.now();
  let db: Database;
  if (pgUrl) {
    db = await openScratchPostgres(pgUrl);
  } else {
    db = await openPgliteDatabase(tmp);
  }
  await applyPendingMigrations(db);
  const openSeconds = (performance.now() - t0) / 1000;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  try {
    const cfg = readConfig();
    const first = await runIngest(db, cfg, inputs, { trigger: 'cli' });
    const firstPeak = peakRss;
    const second = await runIngest(db, cfg, inputs, { trigger: 'cli' });
    const mb = (b: number) => (b / 1048576).toFixed(0);
    const rows = [
      ['database', db.kind === 'pglite' ? 'PGlite (embedded, fresh)' : 'PostgreSQL (fresh database)'],
      ['open + migrate', `${openSeconds.toFixed(1)} s`],
      [
        'first ingest',
        `${first.seconds.toFixed(1)} s = import ${first.ingestSeconds.toFixed(1)} s + structuring ${first.structureSeconds.toFixed(1)} s + graph ${first.graphSeconds.toFixed(1)} s  (${first.papers} papers, ${first.paragraphs} paragraphs, ${first.records} records, ${first.errors} errors)`,
      ],
      ['  throughput', `${Math.round((first.counters.papersAdded + first.counters.recordsAdded) / first.ingestSeconds)} papers+records/s imported`],
      ['  peak RSS', `${mb(firstPeak)} MB`],
      [
        're-ingest',
        `${second.seconds.toFixed(1)} s  (${second.counters.papersAdded} added, ${second.counters.papersUpdated} updated, ${second.counters.papersUnchanged} unchanged papers; ${second.counters.recordsAdded} added records)`,
      ],
      ['  peak RSS', `${mb(peakRss)} MB`],
    ];
    for (const [k, v] of rows) console.log(`${k.padEnd(16)} ${v}`);
    console.log(
      JSON.stringify({
        database: db.kind,
        first: {
          seconds: first.seconds,
          ingestSeconds: first.ingestSeconds,
          structureSeconds: first.structureSeconds,
          graphSeconds: first.graphSeconds,
          papers: first.papers,
          paragraphs: first.paragraphs,
          records: first.records,
          errors: first.errors,
          peakRssMb: Number(mb(firstPeak)),
        },
        reingest: { seconds: second.seconds, ...second.counters },
      }),
    );
  } finally {
    clearInterval(sampler);
    await db.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function benchGraph() {
  const cfg = readConfig();
  if (cfg.databaseUrl) throw new Error('bench graph copies the embedded database; unset DATABASE_URL (it would rebuild a server database in place)');
  const source = path.join(cfg.dataDir, 'pglite');
  if (!fs.existsSync(source)) throw new Error(`no embedded database in ${cfg.dataDir}: run npm run ingest first`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-bench-graph-'));
  // Copied under the source's lock, so a running app or import cannot change it half-way through the copy.
  const release = acquireProcessLock(path.join(cfg.dataDir, 'pglite.lock'), `the embedded database in ${cfg.dataDir}`);
  try {
    fs.cpSync(source, path.join(tmp, 'pglite'), { recursive: true });
  } finally {
    release();
  }
  const db = await openPgliteDatabase(tmp);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  try {
    await applyPendingMigrations(db);
    await clearGraph(db);
    const runs = [];
    for (const label of ['from nothing', 'again (incremental)']) {
      const build = await buildGraph(db, { extractor: configuredTupleExtractor(db, cfg) });
      const canonical = await canonicalizeWithConfiguredEmbedder(db, cfg);
      const total = build.seconds + canonical.seconds;
      const p = build.phases;
      console.log(
        `${label.padEnd(20)} ${total.toFixed(1)} s = read ${p.readSeconds.toFixed(1)} s + extract ${p.extractSeconds.toFixed(1)} s + write ${p.writeSeconds.toFixed(1)} s + canonical clustering ${canonical.seconds.toFixed(1)} s  (${build.papersExtracted} of ${build.papersSeen} papers extracted, ${build.counts.tuples} tuples, ${build.counts.entities} entities, ${canonical.names} names in ${canonical.clusters} clusters)`,
      );
      runs.push({ label, seconds: total, ...p, clusteringSeconds: canonical.seconds, papersExtracted: build.papersExtracted, tuples: build.counts.tuples });
    }
    console.log(`peak RSS             ${(peakRss / 1048576).toFixed(0)} MB`);
    console.log(JSON.stringify({ runs, peakRssMb: Math.round(peakRss / 1048576) }));
  } finally {
    clearInterval(sampler);
    await db.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function benchAnswer(args: string[]) {
  const opt = cliOptions(args, ['questions', 'pipeline']);
  const shared = sharedDataDir();
  const questionsFile = opt('questions') ?? (shared ? path.join(shared, 'questions-hard.dev.jsonl') : undefined);
  if (!questionsFile || !fs.existsSync(questionsFile)) throw new Error('give --questions <jsonl> (../shared/data is absent)');
  const pipeline = opt('pipeline') ?? DEFAULT_ANSWER_PIPELINE;
  if (!isPipelineName(pipeline)) throw new Error(`unknown pipeline: ${pipeline}`);
  const cfg = readConfig({ ...process.env, ASSAY_REFORMULATION: 'rules' });
  const db = await openMigratedDatabase(cfg);
  try {
    const service = createRetrievalService(db, cfg);
    const index = await service.index();
    await index.graph.get(); // warm: the first question should not pay for building the graph index
    const questions = await loadQuestions(questionsFile);
    const evidence: number[] = [];
    const text: number[] = [];
    const whole: number[] = [];
    for (const q of questions) {
      const t0 = performance.now();
      let e = 0;
      let t = 0;
      await answerQuestion(index, q.question, {
        ...service.options,
        pipeline,
        events: { onEvidence: () => (e ||= performance.now() - t0), onDelta: () => (t ||= performance.now() - t0) },
      });
      evidence.push(e);
      text.push(t);
      whole.push(performance.now() - t0);
    }
    const stat = (xs: number[]) => ({
      p50: Math.round(percentile(xs, 50) * 10) / 10,
      p95: Math.round(percentile(xs, 95) * 10) / 10,
      max: Math.round(Math.max(...xs) * 10) / 10,
    });
    const out = {
      questions: questions.length,
      pipeline,
      mode: 'extractive',
      firstEvidenceMs: stat(evidence),
      firstTextMs: stat(text),
      wholeAnswerMs: stat(whole),
    };
    console.log(`${questions.length} questions, ${pipeline}, extractive, warm index`);
    for (const [k, v] of Object.entries({ 'first evidence': out.firstEvidenceMs, 'first answer text': out.firstTextMs, 'whole answer': out.wholeAnswerMs }))
      console.log(`${k.padEnd(18)} p50 ${v.p50} ms, p95 ${v.p95} ms, max ${v.max} ms`);
    console.log(JSON.stringify(out));
  } finally {
    await db.close();
  }
}

async function main() {
  const [what, ...rest] = process.argv.slice(2);
  if (what === 'ingest') return benchIngest(rest);
  if (what === 'retrieval') return benchRetrieval(rest);
  if (what === 'answer') return benchAnswer(rest);
  if (what === 'load') return benchLoad(rest);
  if (what === 'fuzz-questions') return benchFuzzQuestions(rest);
  if (what === 'fuzz') return benchFuzz(rest);
  if (what === 'graph') return benchGraph();
  if (what === 'tagger') return benchTagger(rest);
  if (what === 'first-start') return benchFirstStart(rest);
  if (what === 'restart') return benchRestart(rest);
  if (what === 'scale') return benchScale(rest);
  if (what === 'scale-out') return benchScaleOut(rest);
  if (what === 'embedding') return benchEmbedding(rest);
  if (what === 'stages') return benchStages(rest);
  if (what === 'fusion') return benchFusion(rest);
  console.error(usage);
  process.exit(2);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
