import { parseArgs } from 'node:util';
import { answerQuestion, DEFAULT_ANSWER_PIPELINE } from '../answer/answer.ts';
import { answerText } from '../answer/types.ts';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { externalIdsOf, paperOf, provenanceOf } from '../evidence/model.ts';
import { isPipelineName, PIPELINES } from '../pipelines/registry.ts';
import { createRetrievalService } from '../pipelines/service.ts';

const usage = `usage: npm run ask -- "question" [--pipeline <name>] [--json]

Answers the question from the corpus in the configured database: each sentence with its citations ([E1] …)
and its verdict against what it cites, then the evidence list. Extractive (no model). Pipelines:
${PIPELINES.join(', ')} (default ${DEFAULT_ANSWER_PIPELINE}).`;

async function main() {
  let parsed: ReturnType<
    typeof parseArgs<{ options: { pipeline: { type: 'string' }; json: { type: 'boolean' }; help: { type: 'boolean' } }; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      options: { pipeline: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  const question = parsed.positionals.join(' ').trim();
  const pipeline = parsed.values.pipeline ?? DEFAULT_ANSWER_PIPELINE;
  if (parsed.values.help || question.length < 3 || !isPipelineName(pipeline)) {
    if (!isPipelineName(pipeline)) console.error(`unknown pipeline: ${pipeline}`);
    console.error(usage);
    process.exit(parsed.values.help ? 0 : 2);
  }
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  try {
    const service = createRetrievalService(db, cfg, { onStage: (s) => process.stderr.write(`index: ${s}\n`) });
    const index = await service.index();
    const answer = await answerQuestion(index, question, { pipeline, reformulator: service.reformulator, modelConfigured: !!cfg.llm });
    if (parsed.values.json) {
      console.log(JSON.stringify(answer, null, 2));
      return;
    }
    console.log(`\n${answerText(answer)}\n`);
    console.log(`(${answer.mode}, ${answer.shape}, pipeline ${answer.pipeline}, confidence ${answer.confidence.toFixed(2)}, ${answer.latencyMs} ms)`);
    if (answer.abstention.abstain) console.log(`not answered: ${answer.abstention.reasons.join(', ')}`);
    for (const s of answer.sentences) console.log(`  ${s.verdict.padEnd(11)} ${s.text.length > 100 ? `${s.text.slice(0, 100)}…` : s.text}`);
    if (answer.table) {
      console.log('\nvalues:');
      for (const r of answer.table) console.log(`  ${r.value.padEnd(18)} ${r.material ?? ''} ${r.conditions.join(', ')} — ${r.paperTitle ?? r.paperId}`);
    }
    if (answer.disagreement) console.log(`\n${answer.disagreement}`);
    console.log('\nevidence:');
    answer.evidence.forEach((e, i) => {
      const where = externalIdsOf(e)[0] ?? provenanceOf(e, 'tuple')[0]?.tupleId ?? '';
      console.log(`  [E${i + 1}] ${e.kind} ${where} — ${paperOf(e)?.title ?? paperOf(e)?.doi ?? ''}`);
    });
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
