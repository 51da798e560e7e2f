import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCases } from '../../eval/robustness/generate.ts';
import { TRANSFORMS } from '../../eval/robustness/registry.ts';
import { answerQuestion, DEFAULT_ANSWER_PIPELINE } from '../answer/answer.ts';
import { databaseLookups } from '../answer/lookups.ts';
import type { Answer } from '../answer/types.ts';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { answerRight } from '../evaluation/answer-metrics.ts';
import {
  type AnswerConfidenceCrossValidation,
  type AnswerConfidenceRow,
  answerConfidenceCandidates,
  fitAnswerConfidence,
  leaveOneFormOutAnswers,
} from '../evaluation/answer-confidence-fit.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { answerSetup } from '../answer/modes.ts';
import { acronymsOf, formFiles, formQuestions } from './eval-robustness.ts';
import { cliOptions } from './options.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MODEL_FILE = path.join(root, 'lib', 'retrieval', 'gate', 'answer-confidence-model.json');

export const answersUsage = `usage: npm run calibrate -- --answers [--questions a.jsonl,...] [--sample n] [--bank-rows bank.json ...]
       [--rows rows.json | --from-rows rows.json,...] [--write]

Fits the confidence every answer shows (lib/retrieval/gate/answer-confidence.ts): every dev form's questions (the
shared dev sets and eval/questions/*.dev.jsonl), --sample n of each per rewrite transform of the
robustness suite (the meaning-changing ones as near misses, wrong whenever answered), and the question bank's answers (\`npm run eval -- --bank --answers --answer-rows bank.json\`, each
family answered by the reader fitted without it) are answered as the app answers them; each answer given is a row,
right when it cites the gold paper first or states the gold value (or, for the bank, does what the bank says a right
answer does), wrong whenever the corpus does not answer the question. Candidates are measured leave-one-form-out
(each dev file, bank family and transform a form); the lowest held-out log-loss is fitted on every row and, with
--write, saved to lib/retrieval/gate/answer-confidence-model.json with its held-out figures.`;

const round = (x: number) => Math.round(x * 1000) / 1000;
const pct = (x: number | null) => (x === null ? '    –' : x.toFixed(3));

export function answerRow(form: string, id: string, a: Answer, right: boolean | null): AnswerConfidenceRow | null {
  if (a.abstention.abstain || a.shape === 'abstain' || right === null || !a.gate) return null;
  return { form, id, shape: a.shape, signals: a.gate.signals, right, shownBefore: a.confidence };
}

async function readRows(files: string[], sample: number): Promise<AnswerConfidenceRow[]> {
  const questions = await formQuestions(files, null);
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  try {
    const service = createRetrievalService(db, cfg, { onStage: (s) => process.stderr.write(`index: ${s}\n`) });
    const index = await service.index();
    const byId = new Map(questions.map((x) => [x.q.id, x.q]));
    const sampled = await formQuestions(files, sample);
    // Every rewrite: the meaning-keeping ones as their question, the meaning-changing ones as near misses (one fact
    // changed: any answer to them is wrong), so that the fit sees what an answer to a changed fact looks like.
    const cases = generateCases(
      sampled.map(({ q }) => ({ id: q.id, question: q.question, answerable: q.type !== 'unanswerable' })),
      { acronyms: acronymsOf(index.abbreviations) },
      TRANSFORMS,
    );
    const asked = [
      ...questions.map(({ form, q }) => ({ form, id: q.id, text: q.question, q, changed: false })),
      ...cases.map((c) => ({ form: c.transform, id: c.id, text: c.question, q: byId.get(c.baseId)!, changed: c.kind === 'change' })),
    ];
    console.log(`${questions.length} dev questions in ${files.length} forms and ${cases.length} rewrites`);
    const options = { ...service.options, ...answerSetup(cfg, 'extractive'), pipeline: DEFAULT_ANSWER_PIPELINE, ...databaseLookups(db.prisma) };
    const rows: AnswerConfidenceRow[] = [];
    for (const [i, x] of asked.entries()) {
      const a = await answerQuestion(index, x.text, options);
      const row = answerRow(x.form, x.id, a, x.changed ? false : answerRight(x.q, a, (id) => index.papers.get(id)?.sourceId ?? null));
      if (row) rows.push(row);
      if ((i + 1) % 250 === 0) process.stderr.write(`${i + 1}/${asked.length} answered\n`);
    }
    return rows;
  } finally {
    await db.close();
  }
}

function print(cv: AnswerConfidenceCrossValidation) {
  console.log(`\nchosen: ${cv.candidate.features.length} signals, l2 ${cv.candidate.l2}. Held out, form by form:`);
  console.log(`${'held-out form'.padEnd(30)} answers  right   mean conf  ECE    AUROC  | ECE before`);
  for (const f of cv.forms)
    console.log(
      `${f.form.padEnd(30)} ${String(f.answered).padStart(7)}  ${pct(f.accuracy)}   ${pct(f.meanConfidence)}     ${pct(f.ece)}  ${pct(f.auroc)}  | ${pct(f.eceBefore)}`,
    );
  console.log('\nby shape (held out):');
  for (const s of cv.byShape)
    console.log(
      `  ${s.shape.padEnd(14)} ${String(s.answered).padStart(6)}  right ${pct(s.accuracy)}  mean conf ${pct(s.meanConfidence)}  ECE ${pct(s.ece)}  AUROC ${pct(s.auroc)}`,
    );
  console.log('reliability (held out):');
  for (const b of cv.reliability)
    if (b.n)
      console.log(`  ${b.from.toFixed(1)}–${b.to.toFixed(1)}  n ${String(b.n).padStart(5)}  mean conf ${pct(b.meanConfidence)}  right ${pct(b.accuracy)}`);
  console.log(
    `all answers: ECE ${cv.ece.toFixed(3)} (before ${cv.eceBefore.toFixed(3)}), AUROC ${pct(cv.auroc)} (before ${pct(cv.aurocBefore)}), log-loss ${cv.logLoss.toFixed(3)}; worst form ${cv.worstEce.form} ECE ${cv.worstEce.value.toFixed(3)}; wrong answers shown below 0.5: ${pct(cv.wrongBelowHalf)}, right ones at 0.5 or more: ${pct(cv.rightAboveHalf)}`,
  );
}

export async function calibrateAnswers(args: string[]): Promise<void> {
  if (args.includes('--help')) return console.log(answersUsage);
  const opt = cliOptions(
    args.filter((a) => a !== '--answers' && a !== '--write'),
    ['questions', 'sample', 'bank-rows', 'rows', 'from-rows'],
  );
  const rows: AnswerConfidenceRow[] = opt('from-rows')
    ? opt('from-rows')!
        .split(',')
        .flatMap((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as AnswerConfidenceRow[])
    : await readRows(formFiles(opt('questions')), Number(opt('sample') ?? 40));
  for (const f of opt('bank-rows')?.split(',').filter(Boolean) ?? []) rows.push(...(JSON.parse(fs.readFileSync(f, 'utf8')) as AnswerConfidenceRow[]));
  if (opt('rows')) fs.writeFileSync(opt('rows')!, JSON.stringify(rows));
  console.log(`${rows.length} answers given in ${new Set(rows.map((r) => r.form)).size} forms; ${rows.filter((r) => r.right).length} right`);
  const results = answerConfidenceCandidates().map((c) => leaveOneFormOutAnswers(rows, c));
  for (const r of results)
    console.log(
      `candidate ${r.candidate.features.length} signals, l2 ${r.candidate.l2}: log-loss ${r.logLoss.toFixed(3)}, ECE ${r.ece.toFixed(3)}, AUROC ${pct(r.auroc)}, worst form ${r.worstEce.form} ${r.worstEce.value.toFixed(3)}`,
    );
  const best = [...results].sort((a, b) => a.logLoss - b.logLoss)[0];
  print(best);
  if (args.includes('--write')) {
    const model = fitAnswerConfidence(rows, best.candidate, `${rows.length} answers in ${new Set(rows.map((r) => r.form)).size} forms`);
    const crossValidated = {
      ece: round(best.ece),
      eceBefore: round(best.eceBefore),
      auroc: best.auroc === null ? null : round(best.auroc),
      worstEce: { ...best.worstEce, value: round(best.worstEce.value) },
      wrongBelowHalf: round(best.wrongBelowHalf),
    };
    fs.writeFileSync(MODEL_FILE, `${JSON.stringify({ model: { ...model, crossValidated } }, null, 2)}\n`);
    spawnSync(path.join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', MODEL_FILE], { stdio: 'ignore' });
    console.log(`\nwrote ${path.relative(process.cwd(), MODEL_FILE)}`);
  }
}
