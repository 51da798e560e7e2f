import { parseArgs } from 'node:util';
import { answerQuestion, DEFAULT_ANSWER_PIPELINE } from '../answer/answer.ts';
import { ANSWER_MODES, answerSetup } from '../answer/modes.ts';
import { askRequestSchema, requestProblem } from '../answer/request.ts';
import { answerText } from '../answer/types.ts';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { externalIdsOf, paperOf, provenanceOf } from '../evidence/model.ts';
import { PIPELINES } from '../pipelines/registry.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { citationLabel } from '../answer/pool.ts';
import { databaseLookups } from '../answer/lookups.ts';

const usage = `usage: npm run ask -- "question" [--pipeline <name>] [--mode ${ANSWER_MODES.join('|')}] [--json]

Answers the question from the corpus in the configured database: each sentence with its citations ([E1] …)
and its verdict against what it cites (and the judge model's, when ASSAY_JUDGE_MODEL is set), then the evidence
list. Mode auto (default): the configured answer model, else extractive (no model); model-only and naive-kg are
method C's baselines and need a model. Pipelines: ${PIPELINES.join(', ')} (default ${DEFAULT_ANSWER_PIPELINE}).`;

async function main() {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: { pipeline: { type: 'string' }; mode: { type: 'string' }; json: { type: 'boolean' }; help: { type: 'boolean' } };
      allowPositionals: true;
    }>
  >;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      options: { pipeline: { type: 'string' }, mode: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  // The question as every route reads it (lib/answer/request.ts).
  const request = askRequestSchema.safeParse({
    question: parsed.positionals.join(' '),
    pipeline: parsed.values.pipeline ?? DEFAULT_ANSWER_PIPELINE,
    mode: parsed.values.mode ?? 'auto',
  });
  if (parsed.values.help || !request.success) {
    if (!parsed.values.help && !request.success) console.error(requestProblem(request.error));
    console.error(usage);
    process.exit(parsed.values.help ? 0 : 2);
  }
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  try {
    const service = createRetrievalService(db, cfg, { onStage: (s) => process.stderr.write(`index: ${s}\n`) });
    const index = await service.index();
    const setup = answerSetup(cfg, request.data.mode);
    const answer = await answerQuestion(index, request.data.question, {
      ...service.options,
      ...setup,
      pipeline: request.data.pipeline,
      ...databaseLookups(db.prisma),
      events: parsed.values.json ? {} : { onDelta: setup.model ? (d) => process.stderr.write(d) : undefined },
    });
    if (parsed.values.json) {
      console.log(JSON.stringify(answer, null, 2));
      return;
    }
    console.log(`\n${answerText(answer)}\n`);
    console.log(`(${answer.mode}, ${answer.shape}, pipeline ${answer.pipeline}, confidence ${answer.confidence.toFixed(2)}, ${answer.latencyMs} ms)`);
    if (answer.abstention.abstain) console.log(`not answered: ${answer.abstention.reasons.join(', ')}`);
    if (answer.notice) console.log(answer.notice);
    for (const s of answer.sentences) {
      const judge = s.judge === undefined ? '' : ` judge:${s.judge ?? 'none'}`;
      console.log(`  ${s.verdict.padEnd(11)}${judge} ${s.text.length > 100 ? `${s.text.slice(0, 100)}…` : s.text}`);
    }
    if (answer.table) {
      console.log('\nvalues:');
      for (const r of answer.table) console.log(`  ${r.value.padEnd(18)} ${r.material ?? ''} ${r.conditions.join(', ')} — ${r.paperTitle ?? r.paperId}`);
    }
    if (answer.disagreement) console.log(`\n${answer.disagreement}`);
    console.log('\nevidence:');
    answer.evidence.forEach((e, i) => {
      const where = externalIdsOf(e)[0] ?? provenanceOf(e, 'tuple')[0]?.tupleId ?? '';
      console.log(`  [${citationLabel(i)}] ${e.kind} ${where} — ${paperOf(e)?.title ?? paperOf(e)?.doi ?? ''}`);
    });
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
