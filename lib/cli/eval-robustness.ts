import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCases, type BaseQuestion } from '../../eval/robustness/generate.ts';
import { TRANSFORMS } from '../../eval/robustness/registry.ts';
import { seedOf } from '../../eval/robustness/text.ts';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { devForms, formOf } from '../evaluation/dev-forms.ts';
import { loadQuestions, type EvaluationQuestion } from '../evaluation/questions.ts';
import { formatRobustnessTable, type Outcome, type RobustnessCaseOutcome, type RobustnessRow, robustnessTable } from '../evaluation/robustness.ts';
import { scoreQuestion } from '../evaluation/retrieval-metrics.ts';
import { isPipelineName, type PipelineName } from '../pipelines/registry.ts';
import { retrieve } from '../pipelines/run.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import type { Abbreviations } from '../retrieval/abbreviations.ts';
import type { AbstentionSignals } from '../retrieval/gate/abstention-model.ts';
import { cliOptions } from './options.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const robustnessUsage = `usage: npm run eval -- --robustness [--questions a.jsonl,b.jsonl] [--pipelines json-qr,hybrid] [--sample n]
       [--transforms a,b] [--json out.json] [--rows rows.json]

The robustness suite (eval/robustness): every question of the dev forms (default: the three shared dev sets and
eval/questions/*.dev.jsonl) rewritten by each transform that applies — meaning-keeping ones (${TRANSFORMS.filter((t) => t.kind === 'invariant')
  .map((t) => t.name)
  .join(', ')}) and meaning-changing ones (${TRANSFORMS.filter((t) => t.kind === 'change')
  .map((t) => t.name)
  .join(', ')}) — and run through each pipeline (default json-qr).
Prints, per pipeline and transform, the invariance rate (outcome — abstention, best paper, value — as the
original's), the share of originally answered questions a meaning-keeping rewrite refuses, and for changes the flip
rate (outcome changed) and the share abstained on. --sample takes n questions per form (the same ones every run);
--rows writes every question's and rewrite's abstention signals and outcome, which \`npm run calibrate --
--robustness-rows\` fits on with the rewrites as forms of their own.`;

/** One question or rewrite as calibration reads it. */
export interface RobustnessSignalRow {
  form: string;
  id: string;
  answerable: boolean;
  right: boolean | null;
  abstained: boolean;
  confidence: number;
  signals: AbstentionSignals | null;
  /** A rewrite's kind; absent for a question as written. */
  rewrite?: 'invariant' | 'change';
}

/** The acronyms the corpus defines at least twice, each with the long form it gives most often. */
export function acronymsOf(abbreviations: Abbreviations): Map<string, string> {
  const out = new Map<string, string>();
  for (const [short, longs] of abbreviations.counts) {
    const long = abbreviations.longForm(short);
    if (long && (longs.get(long) ?? 0) >= 2 && /[A-Z].*[A-Z]/.test(short) && long.includes(' ')) out.set(short, long);
  }
  return out;
}

function outcomeOf(q: EvaluationQuestion, r: RetrievalResult, sourceIds: Map<string, string | null>): Outcome {
  const s = scoreQuestion(q, r, sourceIds);
  const top = r.papers[0];
  const right = q.type === 'unanswerable' ? false : (s.doiAt1 ?? s.valueAt3 ?? null);
  return {
    abstained: r.abstention.abstain,
    paper: top ? (top.paperId ?? top.doi ?? null) : null,
    valueRight: q.type === 'value' ? !!s.valueAt3 : null,
    right,
    confidence: r.abstention.calibrated,
  };
}

/**
 * The question files a `--questions a.jsonl,b.jsonl` option names, else every dev form; exits with the missing ones
 * named when a file is not there.
 */
export function formFiles(option: string | undefined): string[] {
  const files = option?.split(',').filter(Boolean) ?? devForms(root);
  const missing = files.filter((f) => !fs.existsSync(f));
  if (missing.length) {
    console.error(`question files not found: ${missing.join(', ')} (the shared dev sets live in ../shared/data; ASSAY_SHARED_DATA moves it)`);
    process.exit(2);
  }
  return files;
}

/**
 * The questions of each form file (its name the form) that `keep` keeps, or `sample` of them per form: the same ones
 * every run, picked by a hash of their ids.
 */
export async function formQuestions(
  files: string[],
  sample: number | null,
  keep: (q: EvaluationQuestion) => boolean = () => true,
): Promise<{ form: string; q: EvaluationQuestion }[]> {
  const questions: { form: string; q: EvaluationQuestion }[] = [];
  for (const file of files) {
    const list = (await loadQuestions(file)).filter(keep);
    const picked = sample ? [...list].sort((a, b) => seedOf(a.id) - seedOf(b.id)).slice(0, sample) : list;
    questions.push(...picked.map((q) => ({ form: formOf(file), q })));
  }
  return questions;
}

export async function evalRobustness(args: string[]): Promise<void> {
  if (args.includes('--help')) {
    console.log(robustnessUsage);
    return;
  }
  const opt = cliOptions(args, ['questions', 'pipelines', 'sample', 'transforms', 'json', 'rows']);
  const pipelines = (opt('pipelines') ?? 'json-qr').split(',').map((s) => s.trim());
  const sample = opt('sample') ? Number(opt('sample')) : null;
  const chosen = opt('transforms')
    ?.split(',')
    .map((s) => s.trim());
  const transforms = chosen ? TRANSFORMS.filter((t) => chosen.includes(t.name)) : TRANSFORMS;
  if (!pipelines.every(isPipelineName) || (sample !== null && !(sample > 0)) || (chosen && transforms.length !== chosen.length)) {
    console.error(robustnessUsage);
    process.exit(2);
  }
  const files = formFiles(opt('questions'));
  const questions = await formQuestions(files, sample);
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  try {
    const service = createRetrievalService(db, cfg, { onStage: (s) => process.stderr.write(`index: ${s}\n`) });
    const index = await service.index();
    const acronyms = acronymsOf(index.abbreviations);
    const bases: BaseQuestion[] = questions.map(({ q }) => ({ id: q.id, question: q.question, answerable: q.type !== 'unanswerable' }));
    const cases = generateCases(bases, { acronyms }, transforms);
    const byId = new Map(questions.map((x) => [x.q.id, x]));
    const sourceIds = new Map([...index.papers.values()].map((p) => [p.id, p.sourceId]));
    console.log(
      `robustness: ${bases.length} questions in ${files.length} forms, ${cases.length} rewrites by ${transforms.length} transforms; ${index.paragraphs.size} paragraphs; embedder ${index.embedderId}; ${acronyms.size} acronyms the corpus defines`,
    );
    const json: Record<string, RobustnessRow[]> = {};
    const signalRows: RobustnessSignalRow[] = [];
    for (const pipeline of pipelines as PipelineName[]) {
      const run = async (text: string, q: EvaluationQuestion) => {
        const r = await retrieve(index, text, pipeline, { reformulator: service.reformulator });
        return { r, outcome: outcomeOf(q, r, sourceIds) };
      };
      const base = new Map<string, { answerable: boolean; outcome: Outcome }>();
      const started = Date.now();
      for (const { form, q } of questions) {
        const { r, outcome } = await run(q.question, q);
        base.set(q.id, { answerable: q.type !== 'unanswerable', outcome });
        signalRows.push(signalRow(form, q.id, q.type !== 'unanswerable', outcome, r));
      }
      const outcomes: RobustnessCaseOutcome[] = [];
      for (const [i, c] of cases.entries()) {
        const q = byId.get(c.baseId)!.q;
        const { r, outcome } = await run(c.question, q);
        outcomes.push({ baseId: c.baseId, transform: c.transform, kind: c.kind, family: c.family, outcome });
        // A change of an answerable question asks what the corpus does not state: unanswerable.
        signalRows.push({ ...signalRow(c.transform, c.id, c.kind === 'invariant' && q.type !== 'unanswerable', outcome, r), rewrite: c.kind });
        if ((i + 1) % 1000 === 0) process.stderr.write(`${pipeline}: ${i + 1}/${cases.length} rewrites\n`);
      }
      const rows = robustnessTable(transforms, base, outcomes);
      json[pipeline] = rows;
      console.log(formatRobustnessTable(pipeline, rows));
      console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s for ${questions.length + cases.length} retrievals)`);
    }
    const out = opt('json');
    if (out) fs.writeFileSync(out, JSON.stringify({ questions: bases.length, rewrites: cases.length, pipelines: json }, null, 2));
    const rowsOut = opt('rows');
    if (rowsOut) fs.writeFileSync(rowsOut, JSON.stringify({ embedderId: index.embedderId, rows: signalRows }));
  } finally {
    await db.close();
  }
}

function signalRow(form: string, id: string, answerable: boolean, outcome: Outcome, r: RetrievalResult): RobustnessSignalRow {
  return {
    form,
    id,
    answerable,
    right: answerable ? outcome.right : false,
    abstained: outcome.abstained,
    confidence: outcome.confidence,
    signals: r.abstention.model?.signals ?? null,
  };
}
