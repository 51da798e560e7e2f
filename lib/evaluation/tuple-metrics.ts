import { nameKey } from '../structure/materials.ts';
import { findProperties } from '../structure/properties.ts';
import { materialEntity } from '../graph/tuples.ts';

/**
 * Scoring extracted tuples against gold relations, per paragraph, after canonicalisation: a predicted tuple
 * matches a gold one when the relation is the same, the subjects are the same entity (canonical key, or one
 * folded name contains the other, since gold spans and ours are cut differently), and the objects are the same
 * property (property lexicon key) or entity. Each gold tuple is matched at most once.
 */
export interface ComparableTuple {
  paragraphId: string;
  subject: string;
  relation: string;
  object: string;
  value?: string | null;
}

export interface TupleScores {
  n_gold: number;
  n_pred: number;
  precision: number;
  recall: number;
  f1: number;
  per_relation: Record<string, { n_gold: number; n_pred: number; precision: number; recall: number; f1: number }>;
}

const folded = (s: string) => nameKey(s).replace(/[^\p{L}\p{N}]/gu, '');

export function sameEntity(a: string, b: string): boolean {
  if (materialEntity(a).key === materialEntity(b).key) return true;
  const fa = folded(a);
  const fb = folded(b);
  if (fa.length < 2 || fb.length < 2) return fa === fb;
  return fa === fb || (Math.min(fa.length, fb.length) >= 3 && (fa.includes(fb) || fb.includes(fa)));
}

export function sameObject(relation: string, a: string, b: string): boolean {
  if (relation === 'has_property') {
    const pa = a.startsWith('p:') ? a.slice(2) : findProperties(a)[0]?.key;
    const pb = b.startsWith('p:') ? b.slice(2) : findProperties(b)[0]?.key;
    if (pa && pb) return pa === pb;
    return folded(a) === folded(b);
  }
  return sameEntity(a, b);
}

const prf = (tp: number, nGold: number, nPred: number) => {
  const precision = nPred ? tp / nPred : 0;
  const recall = nGold ? tp / nGold : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { n_gold: nGold, n_pred: nPred, precision: r(precision), recall: r(recall), f1: r(f1) };
};

export function scoreTuples(gold: ComparableTuple[], pred: ComparableTuple[]): TupleScores & { matches: [ComparableTuple, ComparableTuple][] } {
  const used = new Set<number>();
  const matches: [ComparableTuple, ComparableTuple][] = [];
  const goldBy = new Map<string, number[]>();
  gold.forEach((g, i) => {
    goldBy.set(`${g.paragraphId}\u0000${g.relation}`, [...(goldBy.get(`${g.paragraphId}\u0000${g.relation}`) ?? []), i]);
  });
  const tpBy = new Map<string, number>();
  for (const p of pred) {
    const candidates = goldBy.get(`${p.paragraphId}\u0000${p.relation}`) ?? [];
    const i = candidates.find((c) => !used.has(c) && sameEntity(gold[c].subject, p.subject) && sameObject(p.relation, gold[c].object, p.object));
    if (i === undefined) continue;
    used.add(i);
    matches.push([gold[i], p]);
    tpBy.set(p.relation, (tpBy.get(p.relation) ?? 0) + 1);
  }
  const relations = [...new Set([...gold.map((g) => g.relation), ...pred.map((p) => p.relation)])].sort();
  const per_relation = Object.fromEntries(
    relations.map((r) => [r, prf(tpBy.get(r) ?? 0, gold.filter((g) => g.relation === r).length, pred.filter((p) => p.relation === r).length)]),
  );
  return { ...prf(matches.length, gold.length, pred.length), per_relation, matches };
}
