import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCases } from '../../eval/robustness/generate.ts';
import { TRANSFORMS } from '../../eval/robustness/registry.ts';
import { ANSWER_K, prepareAnswer } from '../answer/answer.ts';
import { draftAnswer, extractiveAnswer } from '../answer/extractive.ts';
import { databaseLookups } from '../answer/lookups.ts';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { scoreAnswer } from '../evaluation/answer-metrics.ts';
import { scoreQuestion } from '../evaluation/retrieval-metrics.ts';
import type { ReliabilityBin } from '../evaluation/calibration.ts';
import {
  bestValueConfidence,
  fitValueConfidence,
  MIN_FORM,
  type ValueConfidenceCrossValidation,
  type ValueConfidenceRow,
} from '../evaluation/value-confidence-fit.ts';
import { retrieve } from '../pipelines/run.ts';
import { isPipelineName, type PipelineName } from '../pipelines/registry.ts';
import { type AbstentionModelFile, embedderFamily, FITTED_MODELS, modelFor, valueConfidenceSignals } from '../retrieval/gate/abstention-model.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { acronymsOf, formFiles, formQuestions } from './eval-robustness.ts';
import { cliOptions } from './options.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const valuesUsage = `usage: npm run calibrate -- --values [--questions a.jsonl,...] [--pipeline hybrid] [--sample n] [--rows rows.json | --from-rows rows.json] [--write]

Fits a value answer's confidence (lib/retrieval/gate/abstention-model.ts, ValueConfidenceModel) for the index's embedder
family: every value question of the dev forms (default: the shared dev sets and eval/questions/*.dev.jsonl) and
every meaning-keeping rewrite of it by the robustness suite is answered as the app answers it (default pipeline
hybrid, the one the app answers with); each value answer given is a row — the shown confidence and the value
extractor's support for its value — labelled right when its lead sentence states the gold value. Two forms compete: the paper's confidence times P(the
value chosen is the gold one), fitted on the answers whose top evidence holds the gold value, and P(right) from the
value's support alone, fitted on every value answer. Candidates are
measured leave-one-form-out (each rewrite transform a form of its own) beside the confidence those answers show
without the fit; the lowest held-out log-loss is fitted on every row and, with --write, saved beside the family's
abstention model. --sample takes n value questions per form; --rows saves the rows, --from-rows fits from saved ones.
Refit after the decision or its confidence is refitted: the shown confidence is one of the value fit's signals.`;

const pct = (x: number | null) => (x === null ? '    –' : x.toFixed(3));
const round = (x: number) => Math.round(x * 1000) / 1000;

async function readValueRows(files: string[], pipeline: PipelineName, sample: number | null): Promise<{ rows: ValueConfidenceRow[]; embedderId: string }> {
  const questions = await formQuestions(files, sample, (q) => q.type === 'value' && !!q.answer_value);
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  try {
    const service = createRetrievalService(db, cfg, { onStage: (s) => process.stderr.write(`index: ${s}\n`) });
    const index = await service.index();
    if (index.embedderNote) console.log(`note: ${index.embedderNote}`);
    // The fit reads the confidence the answers show without it: the decision's fit, with no value fit.
    const fit = modelFor(index.embedderId);
    const withoutValueFit = fit ? { ...fit, valueConfidence: undefined } : null;
    const byId = new Map(questions.map((x) => [x.q.id, x]));
    const cases = generateCases(
      questions.map(({ q }) => ({ id: q.id, question: q.question, answerable: true })),
      { acronyms: acronymsOf(index.abbreviations) },
      TRANSFORMS.filter((t) => t.kind === 'invariant'),
    );
    const asked = [
      ...questions.map(({ form, q }) => ({ form, id: q.id, text: q.question, q })),
      ...cases.map((c) => ({ form: c.transform, id: c.id, text: c.question, q: byId.get(c.baseId)!.q })),
    ];
    console.log(
      `${questions.length} value questions in ${files.length} forms and ${cases.length} rewrites; pipeline ${pipeline}; embedder ${index.embedderId}`,
    );
    const options = { reformulator: service.reformulator, k: ANSWER_K, abstentionModel: withoutValueFit };
    const lookups = databaseLookups(db.prisma);
    const sourceIds = new Map([...index.papers.values()].map((p) => [p.id, p.sourceId]));
    const rows: ValueConfidenceRow[] = [];
    let other = 0;
    for (const [i, a] of asked.entries()) {
      const r = await retrieve(index, a.text, pipeline, options);
      const prepared = await prepareAnswer(r, (side) => retrieve(index, side, pipeline, options), lookups);
      const draft = draftAnswer(prepared);
      const answer = { ...extractiveAnswer(prepared, draft), trace: [], latencyMs: 0 };
      if ((i + 1) % 500 === 0) process.stderr.write(`${i + 1}/${asked.length} asked\n`);
      const support = prepared.value?.support;
      // Value answers only, as shown in full: a refusal shows no confidence, another shape is not a value's, and an
      // answer at another temperature than asked keeps its halving.
      if (answer.shape !== 'value' || answer.abstention.abstain || !support || (draft.answered ?? 1) < 1) {
        other++;
        continue;
      }
      const shown = prepared.abstention.calibrated;
      rows.push({
        form: a.form,
        id: a.id,
        signals: valueConfidenceSignals(support),
        shown,
        found: scoreQuestion(a.q, r, sourceIds).valueAt3 === true,
        right: scoreAnswer(a.q, answer).valueCorrect === true,
      });
    }
    console.log(`${rows.length} value answers; ${other} questions answered otherwise (another shape, a refusal, another temperature)`);
    return { rows, embedderId: index.embedderId };
  } finally {
    await db.close();
  }
}

function printReliability(label: string, bins: ReliabilityBin[]) {
  console.log(label);
  for (const b of bins)
    if (b.n)
      console.log(`  ${b.from.toFixed(1)}–${b.to.toFixed(1)}  n ${String(b.n).padStart(5)}  mean conf ${pct(b.meanConfidence)}  right ${pct(b.accuracy)}`);
}

function printChosen(cv: ValueConfidenceCrossValidation) {
  console.log(
    `\nchosen: ${cv.candidate.timesPaper ? "the paper's confidence × " : ''}${cv.candidate.features.join(', ')}; l2 ${cv.candidate.l2}. Held out, form by form (fit | shown without it):`,
  );
  console.log(`${'held-out form'.padEnd(26)} answers  right   mean conf    ECE        mean shown   ECE`);
  for (const f of cv.forms)
    console.log(
      `${f.form.padEnd(26)} ${String(f.answered).padStart(7)}  ${pct(f.accuracy)}   ${pct(f.meanConfidence)}      ${pct(f.ece)}      ${pct(f.meanShown)}        ${pct(f.shownEce)}`,
    );
  printReliability('reliability of the fit, held out:', cv.reliability);
  printReliability('reliability of the confidence shown without it:', cv.shownReliability);
}

function summaryOf(cv: ValueConfidenceCrossValidation) {
  return {
    ece: round(cv.ece),
    auroc: cv.auroc === null ? null : round(cv.auroc),
    logLoss: round(cv.logLoss),
    meanFormEce: round(cv.meanFormEce),
    without: {
      ece: round(cv.shownEce),
      auroc: cv.shownAuroc === null ? null : round(cv.shownAuroc),
      logLoss: round(cv.shownLogLoss),
      meanFormEce: round(cv.shownMeanFormEce),
    },
    forms: Object.fromEntries(
      cv.forms.map((f) => [f.form, { answered: f.answered, accuracy: round(f.accuracy), ece: round(f.ece), withoutEce: round(f.shownEce) }]),
    ),
  };
}

export async function calibrateValues(args: string[]): Promise<void> {
  if (args.includes('--help')) {
    console.log(valuesUsage);
    return;
  }
  const write = args.includes('--write');
  const opt = cliOptions(
    args.filter((a) => a !== '--write' && a !== '--values'),
    ['questions', 'pipeline', 'sample', 'rows', 'from-rows'],
  );
  const pipeline = opt('pipeline') ?? 'hybrid';
  const sample = opt('sample') ? Number(opt('sample')) : null;
  if (!isPipelineName(pipeline) || (sample !== null && !(sample > 0))) {
    console.error(valuesUsage);
    process.exit(2);
  }
  const files = formFiles(opt('questions'));
  const from = opt('from-rows');
  const { rows, embedderId }: { rows: ValueConfidenceRow[]; embedderId: string } = from
    ? JSON.parse(fs.readFileSync(from, 'utf8'))
    : await readValueRows(files, pipeline, sample);
  const out = opt('rows');
  if (out && !from) fs.writeFileSync(out, JSON.stringify({ embedderId, rows }));
  const family = embedderFamily(embedderId);
  const forms = [...new Set(rows.map((r) => r.form))];
  console.log(
    `${rows.length} value answers in ${forms.length} forms, ${rows.filter((r) => r.found).length} with the gold value in their evidence, ${rows.filter((r) => r.right).length} right; embedder ${embedderId} (${family})`,
  );
  const { chosen, all } = bestValueConfidence(rows);
  for (const cv of all)
    console.log(
      `candidate ${cv.candidate.timesPaper ? "paper's × " : ''}${cv.candidate.features.join('+')}, l2 ${cv.candidate.l2}: held-out log-loss ${cv.logLoss.toFixed(3)}, ECE ${cv.ece.toFixed(3)}, mean form ECE (forms of ${MIN_FORM}+) ${cv.meanFormEce.toFixed(3)}, AUROC ${cv.auroc?.toFixed(3) ?? '–'}`,
    );
  const first = all[0];
  console.log(
    `without the fit (the confidence shown now): log-loss ${first.shownLogLoss.toFixed(3)}, ECE ${first.shownEce.toFixed(3)}, mean form ECE ${first.shownMeanFormEce.toFixed(3)}, AUROC ${first.shownAuroc?.toFixed(3) ?? '–'}`,
  );
  printChosen(chosen);
  const model = fitValueConfidence(
    rows,
    chosen.candidate,
    `${pipeline} value answers on ${forms.length} forms (${rows.length} answers), embedder ${embedderId}, ${new Date().toISOString().slice(0, 10)}`,
  );
  model.crossValidated = summaryOf(chosen);
  console.log(
    `weights: ${model.features.map((f, j) => `${f} ${model.weights[j] >= 0 ? '+' : ''}${model.weights[j].toFixed(2)}`).join(', ')}; bias ${model.bias.toFixed(2)}`,
  );
  if (write) {
    const base = FITTED_MODELS.models[family];
    if (!base) throw new Error(`no abstention model for ${family} to save the value fit beside: run npm run calibrate first`);
    const file: AbstentionModelFile = { models: { ...FITTED_MODELS.models, [family]: { ...base, valueConfidence: model } } };
    const target = path.join(root, 'lib', 'retrieval', 'gate', 'abstention-model.json');
    fs.writeFileSync(target, `${JSON.stringify(file, null, 2)}\n`);
    spawnSync(path.join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', target], { stdio: 'ignore' });
    console.log(`wrote the ${family} value fit into ${target}`);
  }
}
