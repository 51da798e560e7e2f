import fs from 'node:fs';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { graphParity } from '../evaluation/graph-parity.ts';
import { loadQuestions } from '../evaluation/questions.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { cliOptions } from './options.ts';

const usage = `usage: NEO4J_URI=bolt://… npm run graph:parity -- --questions <jsonl> [--pipeline graph|graph-keyword] [--limit n] [--k 10] [--json <out>]

Answers each question with the graph pipeline twice — candidates from the embedded graph index and from Neo4j
(after npm run graph:sync) — and prints how far the results agree (top-k tuples, top-5 paragraphs, first
paper), each side's latency and DOI@5, and the questions that differ with the tuples only one side returned.`;

async function main() {
  const opt = cliOptions(process.argv.slice(2), ['questions', 'pipeline', 'limit', 'k', 'json']);
  const file = opt('questions');
  const pipeline = opt('pipeline') ?? 'graph';
  const limit = opt('limit') ? Number(opt('limit')) : undefined;
  const k = Number(opt('k') ?? 10);
  const cfg = config();
  if (!file || (pipeline !== 'graph' && pipeline !== 'graph-keyword') || (limit !== undefined && !(limit > 0)) || !(k > 0)) {
    console.error(usage);
    process.exit(2);
  }
  if (!cfg.neo4j) {
    console.error('graph:parity compares the embedded graph with Neo4j: set NEO4J_URI (npm run neo4j:dev starts one), then npm run graph:sync');
    process.exit(2);
  }
  const db = await openMigratedDatabase(cfg);
  try {
    const service = createRetrievalService(db, cfg);
    const neo4j = service.options.graphSource!;
    const index = await service.index();
    const questions = await loadQuestions(file, { limit });
    const report = await graphParity(index, questions, neo4j, {
      pipeline,
      k,
      base: { ...service.options, graphSource: undefined },
      onQuestion: (n) => n % 100 === 0 && process.stderr.write(`progress: ${n}/${questions.length}\n`),
    });
    const f = (x: number | null) => (x === null ? '–' : x.toFixed(3));
    console.log(`${report.pipeline} on ${report.questions} questions, embedded graph index vs Neo4j`);
    console.log(`  top-${report.k} tuple overlap ${f(report.tupleOverlap)}, identical ranked top-${report.k} ${f(report.identicalTuples)}`);
    console.log(`  top-5 paragraph overlap ${f(report.paragraphOverlap)}, same first paper ${f(report.samePaperAt1)}`);
    for (const [name, m] of [
      ['embedded', report.embedded],
      ['neo4j', report.neo4j],
    ] as const)
      console.log(
        `  ${name.padEnd(9)} p50 ${m.latency_ms.p50.toFixed(1)} ms, p95 ${m.latency_ms.p95.toFixed(1)} ms, DOI@5 ${f(m.doi_at_5)}, par@5 ${f(m.recall_at_5_paragraph)}, val@3 ${f(m.value_at_3)}, abstention ${f(m.abstain_rate_unanswerable)}`,
      );
    console.log(`  ${report.differences.length} questions differ${report.differences.length ? '; the first ten:' : ''}`);
    for (const d of report.differences.slice(0, 10))
      console.log(
        `    ${d.id} overlap ${f(d.tupleOverlap)}: embedded only ${d.embeddedOnly.length}, neo4j only ${d.neo4jOnly.length} — ${d.question.slice(0, 90)}`,
      );
    if (opt('json')) fs.writeFileSync(opt('json')!, `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await db.close();
  }
}

main()
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
