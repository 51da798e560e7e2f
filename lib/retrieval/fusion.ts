import type { Evidence } from '../evidence/model.ts';
import type { ScoredId } from './lexical-index.ts';
import { RRF_K, SECOND_ONLY_SHARE } from './scoring.ts';

/**
 * Fusion, in one place. Two operations that look alike but join different things:
 * - `reciprocalRankFusion` joins ranked candidate lists of one retriever (BM25 and dense hits, sub-queries) before
 *   they become evidence: their scores live on unrelated scales that change with every query, their ranks do not.
 * - `fuseEvidence` joins the evidence of two retrievers (structured and graph) after it is made: items are the
 *   same paragraph when their ids agree, and the fused item keeps the provenance of both (the sentence that states
 *   a claim and the tuple that connects it).
 */

/** Reciprocal-rank fusion (Cormack et al. 2009): score(d) = Σ_lists w / (RRF_K + rank(d)); ties by id. */
export function reciprocalRankFusion(lists: { hits: ScoredId[]; weight?: number }[], k = RRF_K): ScoredId[] {
  const scores = new Map<string, number>();
  for (const { hits, weight = 1 } of lists) {
    hits.forEach((h, rank) => {
      scores.set(h.id, (scores.get(h.id) ?? 0) + weight / (k + rank + 1));
    });
  }
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

/**
 * The evidence of a leading retriever and a second one, fused by id: both max-normalised; an item both found keeps
 * the leader's score plus `weight` × the second's and gains the second's provenance; items only the second found
 * rank below every item of the leader (SECOND_ONLY_SHARE of its lowest normalised score, in their own order).
 */
export function fuseEvidence(leader: Evidence[], second: Evidence[], weight: number): Evidence[] {
  const top = (list: Evidence[]) => list.reduce((m, e) => Math.max(m, e.score), 0) || 1;
  const [a, b] = [top(leader), top(second)];
  const floor = leader.reduce((m, e) => Math.min(m, e.score / a), 1);
  const out = new Map<string, Evidence>();
  for (const e of leader) out.set(e.id, { ...e, score: e.score / a });
  for (const e of second) {
    const cur = out.get(e.id);
    if (!cur) out.set(e.id, { ...e, score: leader.length ? floor * (e.score / b) * SECOND_ONLY_SHARE : e.score / b });
    else {
      const known = new Set(cur.provenance.map((p) => JSON.stringify(p)));
      out.set(e.id, {
        ...cur,
        score: cur.score + (weight * e.score) / b,
        provenance: [...cur.provenance, ...e.provenance.filter((p) => !known.has(JSON.stringify(p)))],
      });
    }
  }
  return [...out.values()].sort((x, y) => y.score - x.score);
}
