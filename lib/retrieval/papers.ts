import type { Evidence } from '../evidence/model.ts';
import type { RetrievalIndex } from './index.ts';
import { SECOND_EVIDENCE_WEIGHT } from './scoring.ts';

/** How a paper states the question's values: as its own result, or citing another work's (`ownership.ts`). */
export type FactStatement = 'own' | 'cited';

export interface PaperHit {
  paperId: string | null;
  doi: string | null;
  title: string | null;
  score: number;
  evidenceIds: string[];
  /** Set when the paper states every value and technique the question states, saying how. */
  statesAskedFacts?: FactStatement;
}

/**
 * Paper score = its best evidence (+ SECOND_EVIDENCE_WEIGHT × its second best, which only breaks near-ties): one paragraph that
 * states the claim beats several that each touch part of it.
 */
export function aggregatePapers(index: RetrievalIndex, evidence: Evidence[]): PaperHit[] {
  const byPaper = new Map<string, { hit: PaperHit; scores: number[] }>();
  for (const e of evidence) {
    const key = e.paperId ?? (e.doi ? `doi:${e.doi}` : null);
    if (!key) continue;
    let entry = byPaper.get(key);
    if (!entry) {
      const paper = e.paperId ? index.papers.get(e.paperId) : undefined;
      entry = { hit: { paperId: e.paperId, doi: paper?.doi ?? e.doi, title: paper?.title ?? null, score: 0, evidenceIds: [] }, scores: [] };
      byPaper.set(key, entry);
    }
    entry.scores.push(e.score);
    entry.hit.evidenceIds.push(e.id);
  }
  for (const { hit, scores } of byPaper.values()) {
    scores.sort((a, b) => b - a);
    hit.score = scores[0] + SECOND_EVIDENCE_WEIGHT * (scores[1] ?? 0);
  }
  return [...byPaper.values()].map((x) => x.hit).sort((a, b) => b.score - a.score);
}

/** How far the best paper leads the next, as a share of its score (0 when it was moved ahead of a higher-scoring one). */
export function paperMargin(papers: PaperHit[]): number {
  const [top, ...rest] = papers;
  const next = Math.max(0, ...rest.map((p) => p.score));
  return top && top.score > 0 ? Math.max(0, (top.score - next) / top.score) : 0;
}
