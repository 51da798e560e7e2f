/**
 * Fitting the abstention model (lib/retrieval/gate/abstention-model.ts) and measuring it the way a new wording would
 * meet it: leave-one-form-out. Every dev question form (a question file: plain, paraphrased, naturally worded,
 * student, reviewer, technician, near-miss, KIST) is held out in turn; the model and its threshold are fitted on
 * the others and measured on the one left out. A change that only helps the form it was fitted on shows up here.
 */
import { ABSTENTION_FEATURES, type AbstentionFeature, type AbstentionModel, type AbstentionSignals } from '../retrieval/gate/abstention-model.ts';
import { fitLogistic, logLoss, predictLogistic, savedFit } from './logistic.ts';

export interface AbstentionRow {
  /** The question form (its file), the unit held out. */
  form: string;
  id: string;
  answerable: boolean;
  signals: AbstentionSignals;
  /** What the hand rules decided (coverage confidence below the line), for comparison. */
  rulesAbstain: boolean;
  /**
   * Whether the question's best answer is right — the gold paper first, or the gold value found — and false for an
   * unanswerable one; null when there is no gold to tell. What the shown confidence is fitted to (confidence-fit.ts).
   */
  right?: boolean | null;
  /** A rewrite of the robustness suite: meaning-keeping or meaning-changing (absent for a dev question as written). */
  rewrite?: 'invariant' | 'change';
}

export interface FormFigures {
  form: string;
  answerable: number;
  unanswerable: number;
  /** Share of the answerable questions refused (null when the form has none). */
  falseAbstention: number | null;
  /** Share of the unanswerable questions abstained on (null when the form has none). */
  abstention: number | null;
}

export interface Candidate {
  features: AbstentionFeature[];
  l2: number;
}

const vector = (row: AbstentionRow, features: readonly AbstentionFeature[]) => features.map((f) => row.signals[f]);

/** A group with fewer questions than this is pooled with the other small groups of its class (its rate is noise). */
const MIN_GROUP = 20;

/**
 * Each form's answerable and unanswerable questions are separate groups, so no form or class outweighs another; the
 * few unanswerable questions a rewrite of the robustness suite kept (or answerable ones a form has) are pooled.
 */
function groups(rows: AbstentionRow[]): AbstentionRow[][] {
  const by = new Map<string, AbstentionRow[]>();
  for (const r of rows) {
    const key = `${r.form}|${r.answerable}`;
    const list = by.get(key);
    if (list) list.push(r);
    else by.set(key, [r]);
  }
  const out = [...by.values()].filter((g) => g.length >= MIN_GROUP);
  for (const answerable of [true, false]) {
    const small = [...by.values()].filter((g) => g.length < MIN_GROUP && g[0].answerable === answerable).flat();
    if (small.length) out.push(small);
  }
  return out;
}

/**
 * What refusing an answerable question costs against answering an unanswerable one. A chemist told "not in this
 * corpus" about a paper that is there loses the answer; a near miss answered still shows its paper, its evidence and
 * what that paper states, so the reader can see the mismatch. Twice, by that judgement.
 */
export const FALSE_ABSTENTION_COST = 2;

/**
 * The threshold that minimises the mean cost over groups (a form's answerable questions refused, its unanswerable
 * ones answered), each group counting once: the sub-forms with few questions matter as much as the plain set.
 */
export function chooseThreshold(rows: AbstentionRow[], probability: (r: AbstentionRow) => number, falseAbstentionCost = FALSE_ABSTENTION_COST): number {
  const gs = groups(rows).map((g) => g.map((r) => ({ p: probability(r), answerable: r.answerable })));
  const candidates = [...new Set(gs.flat().map((x) => Math.round(x.p * 1000) / 1000))].sort((a, b) => a - b);
  let best = { t: 0.5, error: Number.POSITIVE_INFINITY };
  for (const c of [0, ...candidates.map((t) => t + 0.0005)]) {
    const error =
      gs.reduce((s, g) => s + ((g[0].answerable ? falseAbstentionCost : 1) * g.filter((x) => x.p < c === x.answerable).length) / g.length, 0) / gs.length;
    // Ties go to the lower threshold: refusing a chemist's answerable question is the costlier mistake.
    if (error < best.error - 1e-12) best = { t: c, error };
  }
  return Math.round(best.t * 10000) / 10000;
}

export function fitAbstentionModel(rows: AbstentionRow[], candidate: Candidate, fittedOn: string): AbstentionModel {
  const fit = fitLogistic(
    rows.map((r) => vector(r, candidate.features)),
    rows.map((r) => r.answerable),
    { l2: candidate.l2 },
  );
  const model: AbstentionModel = {
    features: [...candidate.features],
    ...savedFit(fit),
    threshold: 0.5,
    l2: candidate.l2,
    fittedOn,
  };
  model.threshold = chooseThreshold(rows, (r) => predictLogistic(model, vector(r, candidate.features)));
  return model;
}

export function figures(form: string, rows: AbstentionRow[], abstains: (r: AbstentionRow) => boolean): FormFigures {
  const ans = rows.filter((r) => r.answerable);
  const un = rows.filter((r) => !r.answerable);
  return {
    form,
    answerable: ans.length,
    unanswerable: un.length,
    falseAbstention: ans.length ? ans.filter(abstains).length / ans.length : null,
    abstention: un.length ? un.filter(abstains).length / un.length : null,
  };
}

export interface CrossValidation {
  candidate: Candidate;
  /** Per held-out form: the model fitted without it, and the hand rules, on it. */
  forms: { model: FormFigures; rules: FormFigures; threshold: number }[];
  /** The worst held-out figure of each kind, and its form. */
  worstFalseAbstention: { form: string; value: number };
  worstAbstention: { form: string; value: number };
  /** Mean over the groups of the held-out error, a false abstention counting FALSE_ABSTENTION_COST (as `chooseThreshold` weighs it). */
  meanGroupError: number;
  /** Held-out log-loss over every question. */
  logLoss: number;
}

export function leaveOneFormOut(rows: AbstentionRow[], candidate: Candidate): CrossValidation {
  const forms = [...new Set(rows.map((r) => r.form))];
  const out: CrossValidation['forms'] = [];
  const probabilities: number[] = [];
  const labels: boolean[] = [];
  const errors: number[] = [];
  for (const form of forms) {
    const train = rows.filter((r) => r.form !== form);
    const test = rows.filter((r) => r.form === form);
    const model = fitAbstentionModel(train, candidate, `all forms but ${form}`);
    const p = (r: AbstentionRow) => predictLogistic(model, vector(r, candidate.features));
    const m = figures(form, test, (r) => p(r) < model.threshold);
    out.push({ model: m, rules: figures(form, test, (r) => r.rulesAbstain), threshold: model.threshold });
    for (const r of test) {
      probabilities.push(p(r));
      labels.push(r.answerable);
    }
    // A held-out rate over a handful of questions is noise: it counts from MIN_GROUP questions.
    if (m.falseAbstention !== null && m.answerable >= MIN_GROUP) errors.push(FALSE_ABSTENTION_COST * m.falseAbstention);
    if (m.abstention !== null && m.unanswerable >= MIN_GROUP) errors.push(1 - m.abstention);
  }
  const worst = (pick: (f: FormFigures) => number | null, higherIsWorse: boolean) =>
    out
      .filter((f) => (higherIsWorse ? f.model.answerable : f.model.unanswerable) >= MIN_GROUP)
      .map((f) => ({ form: f.model.form, value: pick(f.model) }))
      .filter((x): x is { form: string; value: number } => x.value !== null)
      .sort((a, b) => (higherIsWorse ? b.value - a.value : a.value - b.value))[0] ?? { form: '–', value: 0 };
  return {
    candidate,
    forms: out,
    worstFalseAbstention: worst((f) => f.falseAbstention, true),
    worstAbstention: worst((f) => f.abstention, false),
    meanGroupError: errors.reduce((a, b) => a + b, 0) / Math.max(1, errors.length),
    logLoss: logLoss(probabilities, labels),
  };
}

/**
 * The candidates `npm run calibrate` compares, each with and without the embedder's signals, at five penalties: every
 * signal; the hand cascade's verdict and score alone (the rules as a baseline the fit must beat); and the cascade
 * beside every signal.
 */
export function candidates(withDense: boolean): Candidate[] {
  const lexical = ABSTENTION_FEATURES.filter((f) => !f.startsWith('dense') && f !== 'rulesAnswer');
  const dense = ABSTENTION_FEATURES.filter((f) => f.startsWith('dense'));
  const sets: AbstentionFeature[][] = [lexical, ['rulesAnswer', 'ruleConfidence'], ['rulesAnswer', ...lexical]];
  const all = withDense ? sets.map((set) => [...set, ...dense]) : sets;
  return all.flatMap((features) => [0.01, 0.03, 0.1, 0.3, 1].map((l2) => ({ features, l2 })));
}
