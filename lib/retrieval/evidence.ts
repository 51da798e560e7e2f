import { type Evidence, evidenceId, noMatchedFacets, type Provenance } from '../evidence/model.ts';
import type { RetrievalContext } from './context.ts';
import { bestSentence, facetCoverage } from './coverage.ts';
import type { Facets } from './facets.ts';
import type { IndexedTuple } from './graph-index.ts';
import type { RetrievalIndex } from './index.ts';
import type { IndexedParagraph } from './indexed.ts';
import type { ScoredId } from './lexical-index.ts';
import { MAX_FURTHER_TUPLES } from './scoring.ts';

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
    text: paras.map((p) => p.text).join('\n'),
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
  /** `kind` is null for a record known only through the graph tuples drawn from it. */
  r: { id: string; paperId: string | null; doi: string | null; kind: string | null; title: string | null; text: string; facets: Facets },
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
    provenance: [paper, r.kind ? { kind: 'record', recordId: r.id, recordKind: r.kind } : { kind: 'record', recordId: r.id }],
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
 * Evidence from scored tuples. Tuples are grouped by what they were read from: their paragraph, or, for tuples
 * drawn from an imported record (a recipe, an experiment) with no paragraph, that record. A group scores as its
 * best tuple, plus `perFurtherTuple` for each further tuple it holds (at most four), plus `coverageWeight` times
 * the share of the question's keywords (weighted, e.g. by inverse document frequency) that its tuples hold
 * together: a synthesis paragraph whose tuples name the target, each precursor and the solvent answers "which
 * paper makes X from A, B and C" though no single tuple names them all. Each item names its tuples in its
 * provenance. Returned with the tuples deduplicated (best score kept), best first.
 */
export function evidenceFromTuples(
  ctx: RetrievalContext,
  hits: ScoredTuple[],
  opts: { perFurtherTuple?: number; keywordWeights?: Map<string, number>; coverageWeight?: number } = {},
): { evidence: Evidence[]; tuples: ScoredTuple[] } {
  const perFurther = opts.perFurtherTuple ?? 0;
  const weights = opts.coverageWeight ? opts.keywordWeights : undefined;
  const weightSum = weights ? [...weights.values()].reduce((a, w) => a + w, 0) : 0;
  interface Group {
    kind: 'paragraph' | 'record';
    id: string;
    best: number;
    n: number;
    tuples: ScoredTuple[];
    covered: Set<string>;
  }
  const groups = new Map<string, Group>();
  for (const h of hits) {
    const pid = h.tuple.paragraphId;
    const onParagraph = pid !== null && ctx.index.paragraphs.has(pid);
    const rid = h.tuple.recordId;
    if (!onParagraph && !(rid && h.tuple.paperId && ctx.index.papers.has(h.tuple.paperId))) continue;
    const key = onParagraph ? `p:${pid}` : `r:${rid}`;
    let g = groups.get(key);
    if (!g) {
      g = { kind: onParagraph ? 'paragraph' : 'record', id: onParagraph ? pid! : rid!, best: 0, n: 0, tuples: [], covered: new Set() };
      groups.set(key, g);
    }
    // The five best tuples (hits come best first) name the item, and what they hold together is its coverage: a
    // review paragraph listing dozens of materials does not cover a question by sheer number.
    if (g.tuples.length < 5 && !g.tuples.some((t) => t.tuple.id === h.tuple.id)) {
      g.tuples.push(h);
      if (weights) for (const k of weights.keys()) if (h.tuple.terms.includes(k)) g.covered.add(k);
    }
    g.best = Math.max(g.best, h.score);
    g.n++;
  }
  const coverageOf = (g: Group) => (weightSum > 0 ? [...g.covered].reduce((a, k) => a + (weights!.get(k) ?? 0), 0) / weightSum : 0);
  const ranked = [...groups.values()]
    .map((g) => ({ g, score: g.best + perFurther * Math.min(g.n - 1, MAX_FURTHER_TUPLES) + (opts.coverageWeight ?? 0) * coverageOf(g) }))
    .sort((a, b) => b.score - a.score || (a.g.id < b.g.id ? -1 : 1));
  const best = new Map<string, ScoredTuple>();
  for (const h of hits) if ((best.get(h.tuple.id)?.score ?? -Infinity) < h.score) best.set(h.tuple.id, h);
  return {
    evidence: ranked.map(({ g, score }) => {
      const tupleProvenance = g.tuples.map((h): Provenance => ({ kind: 'tuple', tupleId: h.tuple.id }));
      if (g.kind === 'paragraph') {
        const e = paragraphEvidence(ctx, { id: g.id, score });
        return { ...e, provenance: [...e.provenance, ...tupleProvenance] };
      }
      return recordTupleEvidence(ctx, g.id, g.tuples, score, tupleProvenance);
    }),
    tuples: [...best.values()].sort((a, b) => b.score - a.score || (a.tuple.id < b.tuple.id ? -1 : 1)),
  };
}

/**
 * A record known through its tuples only (the records index is built for the records pipeline alone): its text is
 * what the tuples say, its facets are their materials, properties and values.
 */
function recordTupleEvidence(ctx: RetrievalContext, recordId: string, tuples: ScoredTuple[], score: number, tupleProvenance: Provenance[]): Evidence {
  const paperId = tuples[0].tuple.paperId!;
  const keys = tuples.flatMap((h) => [h.tuple.subjectKey, h.tuple.objectKey, h.tuple.subjectCanonical, h.tuple.objectCanonical]);
  const facets: Facets = {
    materials: new Set(keys.filter((k) => k.startsWith('f:') || k.startsWith('m:'))),
    properties: new Set(keys.filter((k) => k.startsWith('p:')).map((k) => k.slice(2))),
    quantities: tuples.flatMap((h) => h.tuple.quantities),
  };
  const doi = ctx.index.papers.get(paperId)?.doi ?? null;
  const text = tuples.map((h) => h.tuple.text).join('; ');
  const e = recordEvidence(ctx, { id: recordId, paperId, doi, kind: null, title: null, text, facets }, score);
  return { ...e, provenance: [...e.provenance, ...tupleProvenance] };
}
