import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { readSynthesisQuestion, type SynthesisScore, synthesisConfidenceFit, synthesisMetrics, synthesisQuestions } from '../evaluation/synthesis-eval.ts';
import { confidenceBucket } from '../synthesis/confidence.ts';
import { lookupRecipes } from '../synthesis/ask.ts';
import { catalogueRecords } from '../synthesis/catalogue.ts';
import { sharedDataDir } from '../common/shared-data.ts';

const usage = `usage: npm run eval:synthesis -- [--records <dir>] [--n 200] [--seed 64] [--json <file>] [--write]

Synthesis questions made from the recipe files (default ../shared/data/records) and answered from the configured
database's recipe catalogue (its records must be imported): question reading (material, method), answered,
recipe found, method accuracy, precursor recall among the usual six, refusal of methods the records lack, latency.
--write: fits the synthesis answers' shown confidence on these questions (lib/synthesis/confidence.json).`;

async function main() {
  const { values } = parseArgs({
    options: {
      records: { type: 'string' },
      n: { type: 'string' },
      seed: { type: 'string' },
      json: { type: 'string' },
      write: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return console.log(usage);
  const dir = values.records ?? sharedDataDir('records');
  if (!dir || !fs.existsSync(dir)) throw new Error(`no recipe files (../shared/data/records, or --records)\n\n${usage}`);
  const questions = await synthesisQuestions(dir, Number(values.n ?? 200), Number(values.seed ?? 64));
  const db = await openMigratedDatabase(config());
  try {
    const catalogued = await catalogueRecords(db);
    if (catalogued.records) console.log(`catalogued ${catalogued.records} records first (${catalogued.seconds.toFixed(1)} s)`);
    const scores: SynthesisScore[] = [];
    for (const question of questions) {
      const t = performance.now();
      const ask = readSynthesisQuestion(question);
      const answer = ask ? await lookupRecipes(db.prisma, ask) : null;
      scores.push({ question, ask, answer, ms: performance.now() - t });
    }
    const m = synthesisMetrics(scores);
    console.log(
      `${m.questions} questions from ${path.relative(process.cwd(), dir) || dir} (${m.answerable} answerable, ${m.unanswerable} about a method the records lack)`,
    );
    for (const [k, v] of Object.entries(m))
      if (!['questions', 'answerable', 'unanswerable'].includes(k))
        console.log(`  ${k.padEnd(16)} ${typeof v === 'number' && k.endsWith('Ms') ? Math.round(v) : v}`);
    const fit = synthesisConfidenceFit(scores, confidenceBucket);
    console.log(
      `confidence fit (recipes summarised: right / questions): ${Object.entries(fit)
        .sort()
        .map(([b, x]) => `${b}: ${x.right}/${x.n}`)
        .join(', ')}`,
    );
    if (values.write) {
      const file = path.join(import.meta.dirname, '..', 'synthesis', 'confidence.json');
      fs.writeFileSync(file, `${JSON.stringify({ fittedOn: `${m.questions} questions, seed ${values.seed ?? 64}`, buckets: fit }, null, 1)}\n`);
      console.log(`wrote ${path.relative(process.cwd(), file)}`);
    }
    const misread = scores.filter((s) => !s.ask?.keys.includes(s.question.targetKey) || (s.ask?.method ?? null) !== s.question.method).slice(0, 8);
    if (misread.length)
      console.log(
        `misread (first ${misread.length}):\n${misread.map((s) => `  ${s.question.question} → ${JSON.stringify(s.ask && { keys: s.ask.keys, method: s.ask.method })}`).join('\n')}`,
      );
    if (values.json)
      fs.writeFileSync(
        values.json,
        JSON.stringify(
          {
            metrics: m,
            questions: scores.map((s) => ({
              ...s.question,
              read: s.ask,
              held: s.answer?.held.map((h) => `${h.count} ${h.name}`),
              summarised: s.answer?.summary?.total ?? 0,
              ms: Math.round(s.ms),
            })),
          },
          null,
          1,
        ),
      );
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
