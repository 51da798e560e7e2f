import fs from 'node:fs';
import { COMPARISON_TEMPLATES, comparisonCases } from '../../eval/comparisons/generate.ts';
import { answerQuestion, DEFAULT_ANSWER_PIPELINE } from '../answer/answer.ts';
import { databaseLookups } from '../answer/lookups.ts';
import { answerSetup } from '../answer/modes.ts';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { type ComparisonScore, type ComparisonSummary, scoreComparison, summarizeComparisons } from '../evaluation/comparison-metrics.ts';
import { isPipelineName } from '../pipelines/registry.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { formFiles, formQuestions } from './eval-robustness.ts';
import { cliOptions } from './options.ts';

export const comparisonsUsage = `usage: npm run eval -- --comparisons [--questions a.jsonl,b.jsonl] [--pipeline hybrid] [--json out.json] [--list]

The comparison suite (eval/comparisons): two-sided comparison questions made from pairs of gold value questions of
the dev forms (default: the three shared dev sets and eval/questions/*.dev.jsonl) that ask the same property of two
materials at the same temperature, worded by templates (${COMPARISON_TEMPLATES.join(', ')}). Each is answered
extractively and scored: both sides named, each side's gold value stated for it, and the side named higher or lower
against the gold values' order. Prints the figures overall and per template; --list prints every case's answer.`;

interface CaseRow {
  id: string;
  template: string;
  question: string;
  gold: string;
  answer: string;
  score: ComparisonScore;
}

const fmt = (x: number | null) => (x === null ? '    –' : x.toFixed(3));

function line(name: string, s: ComparisonSummary): string {
  return `${name.padEnd(16)} ${String(s.n).padStart(4)}  ${fmt(s.abstained)}  ${fmt(s.both_sides_named)}  ${fmt(s.side_value_recall)}  ${fmt(s.verdict_rate)}  ${fmt(s.verdict_accuracy)}  ${fmt(s.wrong_verdict_rate)}  ${fmt(s.confidence_right)}  ${fmt(s.confidence_wrong)}`;
}

export async function evalComparisons(args: string[]): Promise<void> {
  if (args.includes('--help')) {
    console.log(comparisonsUsage);
    return;
  }
  const list = args.includes('--list');
  const opt = cliOptions(
    args.filter((a) => a !== '--list'),
    ['questions', 'pipeline', 'json'],
  );
  const pipeline = opt('pipeline') ?? DEFAULT_ANSWER_PIPELINE;
  if (!isPipelineName(pipeline)) {
    console.error(comparisonsUsage);
    process.exit(2);
  }
  const questions = await formQuestions(formFiles(opt('questions')), null, (q) => q.type === 'value' && !!q.answer_value);
  const cases = comparisonCases(questions.map(({ q }) => ({ id: q.id, question: q.question, value: q.answer_value! })));
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  try {
    const service = createRetrievalService(db, cfg, { onStage: (s) => process.stderr.write(`index: ${s}\n`) });
    const index = await service.index();
    console.log(`comparisons: ${cases.length} from ${questions.length} value questions; pipeline ${pipeline}; embedder ${index.embedderId}`);
    const rows: CaseRow[] = [];
    const started = Date.now();
    for (const c of cases) {
      const a = await answerQuestion(index, c.question, { ...service.options, ...answerSetup(cfg, 'extractive'), pipeline, ...databaseLookups(db.prisma) });
      const sentences = a.sentences.map((s) => s.text);
      const score = scoreComparison(c.sides, { sentences, abstained: a.abstention.abstain, confidence: a.confidence });
      rows.push({
        id: c.id,
        template: c.template,
        question: c.question,
        gold: c.sides.map((s) => `${s.name} ${s.value}`).join(' / '),
        answer: sentences.join(' '),
        score,
      });
    }
    const overall = summarizeComparisons(rows.map((r) => r.score));
    const byTemplate = Object.fromEntries(COMPARISON_TEMPLATES.map((t) => [t, summarizeComparisons(rows.filter((r) => r.template === t).map((r) => r.score))]));
    console.log(`\n${'template'.padEnd(16)} ${'n'.padStart(4)}  abst   both   values verdic v.acc  wrong  c.right c.wrong`);
    console.log(line('all', overall));
    for (const [t, s] of Object.entries(byTemplate)) console.log(line(t, s));
    console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s for ${cases.length} answers)`);
    if (list)
      for (const r of rows)
        console.log(
          `\n[${r.template}] ${r.question}\n  gold: ${r.gold}\n  named ${r.score.sidesNamed}, values ${r.score.valuesStated}, verdict ${r.score.verdict}${r.score.abstained ? ', abstained' : ''}, confidence ${r.score.confidence.toFixed(2)}\n  ${r.answer.slice(0, 400)}`,
        );
    const out = opt('json');
    if (out) fs.writeFileSync(out, JSON.stringify({ cases: cases.length, pipeline, overall, byTemplate, rows }, null, 2));
  } finally {
    await db.close();
  }
}
