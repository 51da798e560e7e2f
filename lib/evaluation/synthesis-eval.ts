import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { seededRandom } from '../common/random.ts';
import { analyseQuestion } from '../retrieval/question.ts';
import { recipeTargets } from '../synthesis/catalogue.ts';
import { normaliseFormula } from '../structure/formula.ts';
import { formulaKey } from '../structure/terms.ts';
import { normaliseMaterial } from '../structure/materials.ts';
import { type RecipeAnswer, type SynthesisAsk, synthesisAsk } from '../synthesis/ask.ts';

/**
 * The synthesis evaluation: questions made from the recipe files the way the shared dev questions were made from
 * gold records — a sampled recipe's target and method put into a wording (several per kind of question, none of
 * them the code's own examples) — and scored against that recipe: whether the question is read as asking how the
 * target is made (material and method), whether the answer comes from the records, holds that recipe, is of the
 * method asked, and lists its precursors among the usual ones. Questions naming a method the records do not have for
 * the target (hydrothermal, CVD …) must be refused. Generated when run, from the recipe files: nothing of the data is
 * kept in the repository.
 */

export interface SynthesisQuestion {
  id: string;
  question: string;
  /** The recipe it was made from. */
  doi: string | null;
  targetKey: string;
  /** The technique key asked (null: the question names none). */
  method: string | null;
  /** The recipe's own method. */
  recipeMethod: string;
  precursorKeys: string[];
  /** The records hold no recipe of the target by the method asked: the answer must refuse. */
  unanswerable: boolean;
}

const METHOD_WORDS: Record<string, string[]> = {
  'sol-gel': ['the sol-gel method', 'a sol–gel route', 'sol-gel synthesis'],
  'solid-state-reaction': ['solid-state reaction', 'a conventional solid state route', 'the ceramic method'],
};
const ABSENT_METHODS = ['hydrothermal synthesis', 'chemical vapour deposition', 'electrospinning', 'spray pyrolysis'];
const ABSENT_KEYS: Record<string, string> = {
  'hydrothermal synthesis': 'hydrothermal',
  'chemical vapour deposition': 'chemical-vapour-deposition',
  electrospinning: 'electrospinning',
  'spray pyrolysis': 'spray-pyrolysis',
};

const WITH_METHOD = [
  (t: string, m: string) => `How is ${t} synthesised by ${m}?`,
  (t: string, m: string) => `What precursors are used to make ${t} via ${m}?`,
  (t: string, m: string) => `Describe a recipe for ${t} using ${m}.`,
  (t: string, m: string) => `At what calcination temperature is ${t} usually fired when prepared by ${m}?`,
  (t: string, m: string) => `how do people prepare ${t} with ${m}`,
];
const WITHOUT_METHOD = [
  (t: string) => `How is ${t} made?`,
  (t: string) => `What are typical starting materials for ${t}?`,
  (t: string) => `Which synthesis route gives ${t}, and under what conditions?`,
];

/** A recipe of the records as the question generators read it: its target, method, paper and precursors. */
export interface RecipeRow {
  target: string;
  targetKey: string;
  method: string;
  doi: string | null;
  precursorKeys: string[];
}

/** The recipes of one records file (gzipped JSON lines) whose target is a plain formula of two elements or more. */
export async function readRecipes(file: string, method: string): Promise<RecipeRow[]> {
  const rows: RecipeRow[] = [];
  const lines = readline.createInterface({ input: fs.createReadStream(file).pipe(zlib.createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const d = JSON.parse(line) as Record<string, unknown>;
    const target = recipeTargets(d)[0];
    const parsed = target ? normaliseFormula(target) : null;
    const key = parsed?.composition ? formulaKey(parsed.formula) : null;
    // Plain formulas of at least two elements, as a chemist would type them.
    if (!target || !key || parsed!.elements.length < 2 || target.length > 24) continue;
    const precursors = (Array.isArray(d.precursors) ? d.precursors : []) as Record<string, unknown>[];
    rows.push({
      target,
      targetKey: `f:${key}`,
      method,
      doi: typeof d.doi === 'string' ? d.doi.toLowerCase() : null,
      precursorKeys: precursors
        .map((p) => String(p.material_formula ?? p.material_string ?? ''))
        .filter(Boolean)
        .map((p) => normaliseMaterial(p).key),
    });
  }
  return rows;
}

/** `n` questions from the recipe files in `recordsDir` (sol-gel.jsonl.gz, solid-state.jsonl.gz), seeded. */
export async function synthesisQuestions(recordsDir: string, n = 200, seed = 64): Promise<SynthesisQuestion[]> {
  const rows = [
    ...(await readRecipes(path.join(recordsDir, 'sol-gel.jsonl.gz'), 'sol-gel')),
    ...(await readRecipes(path.join(recordsDir, 'solid-state.jsonl.gz'), 'solid-state-reaction')),
  ];
  const rnd = seededRandom(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)];
  const out: SynthesisQuestion[] = [];
  for (let i = 0; i < n; i++) {
    const r = pick(rows);
    const kind = rnd();
    const base = { id: `synthesis-${i + 1}`, doi: r.doi, targetKey: r.targetKey, recipeMethod: r.method, precursorKeys: r.precursorKeys };
    if (kind < 0.6) out.push({ ...base, question: pick(WITH_METHOD)(r.target, pick(METHOD_WORDS[r.method])), method: r.method, unanswerable: false });
    else if (kind < 0.85) out.push({ ...base, question: pick(WITHOUT_METHOD)(r.target), method: null, unanswerable: false });
    else {
      const absent = pick(ABSENT_METHODS);
      out.push({ ...base, question: pick(WITH_METHOD.slice(0, 3))(r.target, absent), method: ABSENT_KEYS[absent], unanswerable: true });
    }
  }
  return out;
}

export interface SynthesisScore {
  question: SynthesisQuestion;
  ask: SynthesisAsk | null;
  answer: RecipeAnswer | null;
  ms: number;
}

const share = (xs: boolean[]): number | null => (xs.length ? Math.round((xs.filter(Boolean).length / xs.length) * 1000) / 1000 : null);

/** The figures of a run: question reading, answering, refusing, method and precursor accuracy, latency. */
export function synthesisMetrics(scores: SynthesisScore[]) {
  const answerable = scores.filter((s) => !s.question.unanswerable);
  const unanswerable = scores.filter((s) => s.question.unanswerable);
  const answered = answerable.filter((s) => s.answer?.summary);
  const recordIds = (s: SynthesisScore) => new Set(s.answer?.evidence.map((e) => e.doi) ?? []);
  const usual = (s: SynthesisScore) => new Set(s.answer?.summary?.precursors.slice(0, 6).map((p) => p.name && normaliseMaterial(p.name).key) ?? []);
  const precursorRecall = answered.map((s) => {
    const gold = [...new Set(s.question.precursorKeys)];
    const u = usual(s);
    return gold.length ? gold.filter((k) => u.has(k)).length / gold.length : 1;
  });
  const ms = scores.map((s) => s.ms).sort((a, b) => a - b);
  return {
    questions: scores.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    /** The question read as how the recipe's target is made (its formula key). */
    materialRead: share(scores.map((s) => !!s.ask?.keys.includes(s.question.targetKey))),
    /** The method read as the one asked (or none when none is asked). */
    methodRead: share(scores.map((s) => (s.ask?.method ?? null) === s.question.method)),
    /** Answerable questions answered from the records. */
    answered: share(answerable.map((s) => !!s.answer?.summary)),
    /** Of those answered, the summary holds the recipe's paper (by DOI) among the recipes it counts. */
    recipeFound: share(answered.map((s) => !s.question.doi || recordIds(s).has(s.question.doi))),
    /** Of those answered with a method asked, every recipe summarised is of that method. */
    methodAccuracy: share(answered.filter((s) => s.question.method).map((s) => s.answer!.summary!.typical.every((r) => r.method === s.question.method))),
    /** Of those answered, the share of the recipe's precursors the answer lists among the usual six. */
    precursorRecall: precursorRecall.length ? Math.round((precursorRecall.reduce((a, b) => a + b, 0) / precursorRecall.length) * 1000) / 1000 : null,
    /** Questions about a method the records do not hold for the target, refused. */
    refused: share(unanswerable.map((s) => !!s.answer && !s.answer.summary)),
    p50Ms: ms[Math.floor((ms.length - 1) / 2)] ?? null,
    p95Ms: ms[Math.floor((ms.length - 1) * 0.95)] ?? null,
  };
}

/**
 * What the shown confidence of a synthesis answer is fitted on: per size of the summary (its recipe count, in the
 * buckets of lib/synthesis/confidence.ts), the share of answered questions whose recipe is among those counted and
 * uses only precursors the answer lists as usual — the chance that a recipe of the material by that method is the
 * one the answer describes.
 */
export function synthesisConfidenceFit(scores: SynthesisScore[], bucketOf: (total: number) => string): Record<string, { n: number; right: number }> {
  const out: Record<string, { n: number; right: number }> = {};
  for (const s of scores) {
    const summary = s.answer?.summary;
    if (s.question.unanswerable || !summary) continue;
    const usual = new Set(summary.precursors.slice(0, 6).map((p) => normaliseMaterial(p.name).key));
    const found = !s.question.doi || s.answer!.evidence.some((e) => e.doi === s.question.doi);
    const right = found && s.question.precursorKeys.every((k) => usual.has(k));
    const b = (out[bucketOf(summary.total)] ??= { n: 0, right: 0 });
    b.n++;
    if (right) b.right++;
  }
  return out;
}

export const readSynthesisQuestion = (q: SynthesisQuestion) => synthesisAsk(analyseQuestion(q.question));
