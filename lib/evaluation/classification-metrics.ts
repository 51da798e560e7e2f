/** Accuracy, per-class precision/recall/F1, macro- and micro-F1 from gold and predicted labels. */

export interface ClassMetrics {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export interface ClassificationReport {
  n: number;
  accuracy: number;
  macro_f1: number;
  micro_f1: number;
  per_class: Record<string, ClassMetrics>;
}

const f1 = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r));
const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

export function classificationReport(gold: string[], predicted: string[]): ClassificationReport {
  if (gold.length !== predicted.length) throw new Error('gold and predicted differ in length');
  const labels = [...new Set([...gold, ...predicted])].sort();
  const per_class: Record<string, ClassMetrics> = {};
  let correct = 0;
  for (let i = 0; i < gold.length; i++) if (gold[i] === predicted[i]) correct++;
  for (const l of labels) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < gold.length; i++) {
      if (predicted[i] === l && gold[i] === l) tp++;
      else if (predicted[i] === l) fp++;
      else if (gold[i] === l) fn++;
    }
    const precision = ratio(tp, tp + fp);
    const recall = ratio(tp, tp + fn);
    per_class[l] = { precision, recall, f1: f1(precision, recall), support: tp + fn };
  }
  // Macro-F1 averages over the gold classes (a label only ever predicted would otherwise count as a class).
  const goldLabels = labels.filter((l) => per_class[l].support > 0);
  const macro = goldLabels.reduce((s, l) => s + per_class[l].f1, 0) / Math.max(goldLabels.length, 1);
  const accuracy = ratio(correct, gold.length);
  return { n: gold.length, accuracy, macro_f1: macro, micro_f1: accuracy, per_class };
}

/** Set-based entity matching (type + normalised text) summed over documents: micro P/R/F1 and per type. */
export function entityReport(docs: { gold: { type: string; key: string }[]; predicted: { type: string; key: string }[] }[]): ClassificationReport {
  const types = new Set<string>();
  const counts = new Map<string, { tp: number; fp: number; fn: number }>();
  const bump = (t: string, k: 'tp' | 'fp' | 'fn') => {
    types.add(t);
    const c = counts.get(t) ?? { tp: 0, fp: 0, fn: 0 };
    c[k]++;
    counts.set(t, c);
  };
  for (const d of docs) {
    const g = new Set(d.gold.map((e) => `${e.type}\u0000${e.key}`));
    const p = new Set(d.predicted.map((e) => `${e.type}\u0000${e.key}`));
    for (const x of p) bump(x.split('\u0000')[0], g.has(x) ? 'tp' : 'fp');
    for (const x of g) if (!p.has(x)) bump(x.split('\u0000')[0], 'fn');
  }
  const per_class: Record<string, ClassMetrics> = {};
  let TP = 0;
  let FP = 0;
  let FN = 0;
  for (const t of [...types].sort()) {
    const c = counts.get(t)!;
    TP += c.tp;
    FP += c.fp;
    FN += c.fn;
    const precision = ratio(c.tp, c.tp + c.fp);
    const recall = ratio(c.tp, c.tp + c.fn);
    per_class[t] = { precision, recall, f1: f1(precision, recall), support: c.tp + c.fn };
  }
  const microP = ratio(TP, TP + FP);
  const microR = ratio(TP, TP + FN);
  const goldTypes = Object.keys(per_class).filter((t) => per_class[t].support > 0);
  return {
    n: docs.length,
    accuracy: ratio(TP, TP + FP + FN),
    macro_f1: goldTypes.reduce((s, t) => s + per_class[t].f1, 0) / Math.max(goldTypes.length, 1),
    micro_f1: f1(microP, microR),
    per_class,
  };
}
