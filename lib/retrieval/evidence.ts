import { type Evidence, evidenceId, noMatchedFacets, type Provenance } from '../evidence/model.ts';
import type { RetrievalContext } from './context.ts';
import { bestSentence, facetCoverage } from './coverage.ts';
import type { Facets } from './facets.ts';
import type { IndexedTuple } from './graph-index.ts';
import type { IndexedParagraph, RetrievalIndex } from './index.ts';
import type { ScoredId } from './lexical-index.ts';

/**
 * Builders of `Evidence` from what the indexes hold: paragraphs, section chunks, records, graph tuples and
 * paths. Every builder fills the provenance the item can name, so the UI and answers never look it up again.
 */

function paperProvenance(index: RetrievalIndex, paperId: string): Provenance {
  const paper = index.papers.get(paperId);
  return { kind: 'paper', paperId, doi: paper?.doi ?? null, title: paper?.title ?? null };
}

const paragraphProvenance = (p: IndexedParagraph): Provenance => ({
  kind: 'paragraph',
  paperId: p.paperId,
  paragraphId: p.id,
  ordinal: p.ordinal,
  externalId: p.externalId,
  section: p.section,
});

export function paragraphEvidence(ctx: RetrievalContext, h: ScoredId): Evidence {
  const p = ctx.index.paragraphs.get(h.id)!;
  const { coverage, matched } = facetCoverage(ctx.analysis, p.facets);
  return {
    id: evidenceId('paragraph', p.id),
    kind: 'paragraph',
    text: p.text,
    score: h.score,
    coverage,
    matched,
    paperId: p.paperId,
    doi: ctx.index.papers.get(p.paperId)?.doi ?? null,
    section: p.section,
    provenance: [paperProvenance(ctx.index, p.paperId), paragraphProvenance(p)],
  };
}

/** Adds the sentence that states most of the question to a paragraph item (done for the returned top-k only). */
export function withBestSentence(ctx: RetrievalContext, e: Evidence): Evidence {
  if (e.kind !== 'paragraph') return e;
  const para = e.provenance.find((x) => x.kind === 'paragraph');
  const p = para ? ctx.index.paragraphs.get(para.paragraphId) : undefined;
  const best = p ? bestSentence(ctx.analysis, p) : null;
  if (!p || !best || e.provenance.some((x) => x.kind === 'sentence')) return e;
  const span = p.sentenceSpans[best.index];
  return {
    ...e,
    provenance: [...e.provenance, { kind: 'sentence', paragraphId: p.id, start: span.start, end: span.end, text: p.text.slice(span.start, span.end) }],
  };
}

export function chunkEvidence(ctx: RetrievalContext, h: ScoredId): Evidence {
  const c = ctx.index.chunks.get(h.id)!;
  const paras = c.paragraphIds.map((id) => ctx.index.paragraphs.get(id)!);
  const merged: Facets = {
    materials: new Set(paras.flatMap((p) => [...p.facets.materials])),
    properties: new Set(paras.flatMap((p) => [...p.facets.properties])),
    quantities: paras.flatMap((p) => p.facets.quantities),
  };
  const { coverage, matched } = facetCoverage(ctx.analysis, merged);
  return {
    id: evidenceId('chunk', c.id),
    kind: 'chunk',
    text: c.text,
    score: h.score,
    coverage,
    matched,
    paperId: c.paperId,
    doi: ctx.index.papers.get(c.paperId)?.doi ?? null,
    section: c.section,
    provenance: [paperProvenance(ctx.index, c.paperId), ...paras.map(paragraphProvenance)],
  };
}

export function recordEvidence(
  ctx: RetrievalContext,
  r: { id: string; paperId: string | null; doi: string | null; kind: string; title: string | null; text: string; facets: Facets },
  score: number,
): Evidence {
  const { coverage, matched } = facetCoverage(ctx.analysis, r.facets);
  const paper: Provenance = r.paperId ? paperProvenance(ctx.index, r.paperId) : { kind: 'paper', paperId: null, doi: r.doi, title: r.title };
  return {
    id: evidenceId('record', r.id),
    kind: 'record',
    text: r.text,
    score,
    coverage,
    matched,
    paperId: r.paperId,
    doi: r.doi,
    section: r.kind,
    provenance: [paper, { kind: 'record', recordId: r.id, recordKind: r.kind }],
  };
}

/** A tuple with the paper, paragraph and (located) sentence it was extracted from. */
export function tupleEvidence(index: RetrievalIndex, t: IndexedTuple, score: number, onPath: boolean): Evidence {
  const provenance: Provenance[] = [];
  if (t.paperId && index.papers.has(t.paperId)) provenance.push(paperProvenance(index, t.paperId));
  const p = t.paragraphId ? index.paragraphs.get(t.paragraphId) : undefined;
  if (p) {
    provenance.push(paragraphProvenance(p));
    const start = t.sentence ? p.text.indexOf(t.sentence) : -1;
    if (t.sentence && start >= 0) provenance.push({ kind: 'sentence', paragraphId: p.id, start, end: start + t.sentence.length, text: t.sentence });
  }
  provenance.push({ kind: 'tuple', tupleId: t.id });
  return {
    id: evidenceId('tuple', t.id),
    kind: 'tuple',
    text: t.text,
    score,
    coverage: null,
    matched: noMatchedFacets(),
    paperId: t.paperId,
    doi: t.paperId ? (index.papers.get(t.paperId)?.doi ?? null) : null,
    section: p?.section ?? null,
    provenance,
    onPath,
  };
}

/** A chain of tuples (a causal or multi-hop path) as one item; its provenance is its tuples'. */
export function pathEvidence(index: RetrievalIndex, tuples: IndexedTuple[], score: number): Evidence {
  const items = tuples.map((t) => tupleEvidence(index, t, score, true));
  const unique = new Map<string, Provenance>();
  for (const x of items.flatMap((i) => i.provenance)) unique.set(JSON.stringify(x), x);
  const provenance = [...unique.values()];
  return {
    id: evidenceId('path', tuples.map((t) => t.id).join('>')),
    kind: 'path',
    text: tuples.map((t) => t.text).join(' → '),
    score,
    coverage: null,
    matched: noMatchedFacets(),
    paperId: items[0]?.paperId ?? null,
    doi: items[0]?.doi ?? null,
    section: null,
    provenance,
    onPath: true,
  };
}

/** A tuple with the score a graph pipeline gave it. */
export interface ScoredTuple {
  tuple: IndexedTuple;
  score: number;
  onPath: boolean;
}

/**
 * Paragraph evidence from scored tuples: a paragraph scores as its best tuple, plus `perFurtherTuple` for each
 * further tuple it holds (at most four), and names its tuples in its provenance. Returned with the tuples
 * deduplicated (best score kept), best first.
 */
export function paragraphsFromTuples(ctx: RetrievalContext, hits: ScoredTuple[], perFurtherTuple = 0): { evidence: Evidence[]; tuples: ScoredTuple[] } {
  const byParagraph = new Map<string, { best: number; n: number; tupleIds: string[] }>();
  for (const h of hits) {
    const pid = h.tuple.paragraphId;
    if (!pid || !ctx.index.paragraphs.has(pid)) continue;
    const cur = byParagraph.get(pid) ?? { best: 0, n: 0, tupleIds: [] };
    if (cur.tupleIds.length < 5 && !cur.tupleIds.includes(h.tuple.id)) cur.tupleIds.push(h.tuple.id);
    byParagraph.set(pid, { best: Math.max(cur.best, h.score), n: cur.n + 1, tupleIds: cur.tupleIds });
  }
  const ranked = [...byParagraph]
    .map(([id, v]) => ({ id, score: v.best + perFurtherTuple * Math.min(v.n - 1, 4), tupleIds: v.tupleIds }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const best = new Map<string, ScoredTuple>();
  for (const h of hits) if ((best.get(h.tuple.id)?.score ?? -Infinity) < h.score) best.set(h.tuple.id, h);
  return {
    evidence: ranked.map((h) => {
      const e = paragraphEvidence(ctx, h);
      return { ...e, provenance: [...e.provenance, ...h.tupleIds.map((tupleId): Provenance => ({ kind: 'tuple', tupleId }))] };
    }),
    tuples: [...best.values()].sort((a, b) => b.score - a.score || (a.tuple.id < b.tuple.id ? -1 : 1)),
  };
}
