import { createHash } from 'node:crypto';
import { classifySynthesisMethod, type ParagraphRole } from '../structure/classify.ts';
import { offlineExtractor, structureAs } from '../structure/paragraph.ts';
import { combinedRole } from '../structurers/heads/extractor.ts';
import { fitHead, type Embed, vectorsOf } from '../structurers/heads/fit.ts';
import { headFeatures, type HeadInputs, type ParagraphHeadTask, type HeadWeights, predictLabel } from '../structurers/heads/head.ts';
import type { LabelledParagraph } from '../structurers/heads/training-data.ts';
import { classificationReport, type ClassificationReport } from './classification-metrics.ts';

/**
 * The structurers side by side on labelled paragraphs: the offline rules, the trained head reading the encoder alone
 * ("heads"), and what the product runs ("both": the head reading the encoder and the rules' scores, applied where
 * lib/structurers/heads/extractor.ts applies it). Heads are fitted on training rows only: cross-validated with folds by
 * paper, or fitted on one set and scored on another (the records' held-out split).
 */
export const STRUCTURERS = ['rules', 'heads', 'both'] as const;
export type Structurer = (typeof STRUCTURERS)[number];

export interface StructurerScores {
  structurer: Structurer;
  report: ClassificationReport;
  /** The class with the lowest F1, where its gold rows went and what else was given its label. */
  worst: { label: string; f1: number; predictedAs: Record<string, number>; takenFrom: Record<string, number> };
}

/** The rules' answer for a task (the role after the extractor's no-material check, as stored). */
export function rulesLabel(task: ParagraphHeadTask, text: string): string {
  return task === 'paragraph-role' ? offlineExtractor.structureParagraph(text).role : classifySynthesisMethod(text).label;
}

interface FittedHeads {
  encoder: HeadWeights;
  both: HeadWeights;
}

function predict(task: ParagraphHeadTask, heads: FittedHeads, text: string, vector: ArrayLike<number>): Record<Structurer, string> {
  const label = (w: HeadWeights) => predictLabel(w, headFeatures(task, w.inputs, text, vector)).label;
  const rules = rulesLabel(task, text);
  const both =
    task === 'paragraph-role'
      ? structureAs(
          text,
          combinedRole(rules as ParagraphRole, () => label(heads.both) as ParagraphRole),
        ).role
      : label(heads.both);
  return { rules, heads: label(heads.encoder), both };
}

async function fitBoth(task: ParagraphHeadTask, rows: LabelledParagraph[], vectors: Map<string, ArrayLike<number>>): Promise<FittedHeads> {
  const trained = (inputs: HeadInputs) => fitHead(task, inputs, rows, vectors);
  return { encoder: await trained('encoder'), both: await trained('encoder+rules') };
}

/** The fold of a group (a paper): the same for every run and every task, so a paper's rows stay together. */
export const foldOf = (group: string, folds: number) => createHash('sha256').update(group).digest().readUInt32BE(0) % folds;

/** Folds by paper: each fold's rows scored by heads fitted on the other folds' rows (plus `extraTraining`). */
export async function crossValidate(
  task: ParagraphHeadTask,
  rows: LabelledParagraph[],
  embed: Embed,
  opts: { folds?: number; extraTraining?: LabelledParagraph[] } = {},
): Promise<StructurerScores[]> {
  const folds = opts.folds ?? 5;
  const extra = opts.extraTraining ?? [];
  const vectors = await vectorsOf(
    [...rows, ...extra].map((r) => r.text),
    embed,
  );
  const predicted: Record<Structurer, string[]> = { rules: [], heads: [], both: [] };
  for (let k = 0; k < folds; k++) {
    const test = rows.map((r, i) => ({ r, i })).filter(({ r }) => foldOf(r.group, folds) === k);
    if (test.length === 0) continue;
    const heads = await fitBoth(task, [...rows.filter((r) => foldOf(r.group, folds) !== k), ...extra], vectors);
    for (const { r, i } of test) {
      const p = predict(task, heads, r.text, vectors.get(r.text)!);
      for (const s of STRUCTURERS) predicted[s][i] = p[s];
    }
  }
  return STRUCTURERS.map((s) => scores(s, rows, predicted[s]));
}

/** Heads fitted on `training`, every structurer scored on `test`. */
export async function trainTest(task: ParagraphHeadTask, training: LabelledParagraph[], test: LabelledParagraph[], embed: Embed): Promise<StructurerScores[]> {
  const vectors = await vectorsOf(
    [...training, ...test].map((r) => r.text),
    embed,
  );
  const heads = await fitBoth(task, training, vectors);
  const predicted: Record<Structurer, string[]> = { rules: [], heads: [], both: [] };
  for (const r of test) {
    const p = predict(task, heads, r.text, vectors.get(r.text)!);
    for (const s of STRUCTURERS) predicted[s].push(p[s]);
  }
  return STRUCTURERS.map((s) => scores(s, test, predicted[s]));
}

function scores(structurer: Structurer, rows: LabelledParagraph[], predicted: string[]): StructurerScores {
  const gold = rows.map((r) => r.label);
  const report = classificationReport(gold, predicted);
  const goldLabels = new Set(gold);
  const [label, m] = Object.entries(report.per_class)
    .filter(([l]) => goldLabels.has(l))
    .sort((a, b) => a[1].f1 - b[1].f1)[0];
  const predictedAs: Record<string, number> = {};
  const takenFrom: Record<string, number> = {};
  gold.forEach((g, i) => {
    if (g === label && predicted[i] !== label) predictedAs[predicted[i]] = (predictedAs[predicted[i]] ?? 0) + 1;
    if (g !== label && predicted[i] === label) takenFrom[g] = (takenFrom[g] ?? 0) + 1;
  });
  return { structurer, report, worst: { label, f1: m.f1, predictedAs, takenFrom } };
}
