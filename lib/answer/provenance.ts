import type { Database } from '../db/database.ts';
import { type LabelledTuple, labelledTuples } from '../db/graph.ts';
import { paperWithStructure, paragraphInContext } from '../db/papers.ts';
import { getRecord } from '../db/records.ts';

/**
 * What the provenance panel shows for one cited item, per tab: **Source** (the paper's metadata; the paragraph in
 * context with its neighbours, the cited sentence's span), **Record** (the paper's structured record, or the
 * imported record an item is), **Tuples** (the graph tuples of the paragraph or the item, each with its source
 * sentence) and **Graph** (those tuples as nodes and edges). Read from the database by the ids an item's
 * provenance names, so any item of any stored answer can be opened.
 */
export interface ProvenanceRequest {
  paperId?: string | null;
  paragraphId?: string | null;
  /** The cited sentence's character span in the paragraph. */
  sentence?: { start: number; end: number } | null;
  tupleIds?: string[];
  recordId?: string | null;
}

export interface ProvenanceDetails {
  paper: {
    id: string;
    title: string | null;
    authors: string[];
    journal: string | null;
    year: number | null;
    doi: string | null;
    license: string | null;
    source: string;
  } | null;
  paragraph: {
    id: string;
    ordinal: number;
    section: string | null;
    role: string | null;
    text: string;
    sentence: { start: number; end: number } | null;
    before: { section: string | null; text: string } | null;
    after: { section: string | null; text: string } | null;
  } | null;
  record: { title: string; kind: string; value: unknown } | null;
  tuples: {
    id: string;
    subject: { key: string; label: string; kind: string };
    relation: string;
    object: { key: string; label: string; kind: string };
    value: string | null;
    sentence: string | null;
    paragraphId: string | null;
  }[];
  graph: { nodes: { id: string; label: string; kind: string }[]; edges: { id: string; source: string; target: string; relation: string }[] };
}

/** Tuples shown for one item at most (a paragraph rarely has more; the panel says when some were left out). */
export const PANEL_TUPLES = 100;

export async function provenanceDetails(db: Database, req: ProvenanceRequest): Promise<ProvenanceDetails> {
  const context = req.paragraphId ? await paragraphInContext(db.prisma, req.paragraphId) : null;
  const paperId = context?.paragraph.paper.id ?? req.paperId ?? null;
  const paper = paperId ? await paperWithStructure(db.prisma, paperId) : null;
  const imported = req.recordId ? await getRecord(db.prisma, req.recordId) : null;
  const tuples = await labelledTuples(db, { paragraphId: req.paragraphId ?? undefined, ids: req.tupleIds }, PANEL_TUPLES);
  const text = context?.paragraph.text ?? '';
  const span = req.sentence && req.sentence.start >= 0 && req.sentence.end <= text.length && req.sentence.start < req.sentence.end ? req.sentence : null;
  return {
    paper: paper
      ? {
          id: paper.id,
          title: paper.title,
          authors: paper.authors,
          journal: paper.journal,
          year: paper.year,
          doi: paper.doi,
          license: paper.license,
          source: paper.source,
        }
      : null,
    paragraph: context
      ? {
          id: context.paragraph.id,
          ordinal: context.paragraph.ordinal,
          section: context.paragraph.section,
          role: context.paragraph.role,
          text,
          sentence: span,
          before: context.before && { section: context.before.section, text: context.before.text },
          after: context.after && { section: context.after.section, text: context.after.text },
        }
      : null,
    record: imported
      ? { title: imported.title ?? imported.kind, kind: imported.kind, value: imported.data }
      : paper?.structure
        ? { title: `Structured record (${paper.structure.extractor})`, kind: 'paper-structure', value: paper.structure.record }
        : null,
    tuples: tuples.map(tupleView),
    graph: subgraph(tuples),
  };
}

function tupleView(t: LabelledTuple): ProvenanceDetails['tuples'][number] {
  const value = t.value === null ? null : `${t.value}${t.valueMax !== null && t.valueMax !== t.value ? `–${t.valueMax}` : ''}${t.unit ? ` ${t.unit}` : ''}`;
  return {
    id: t.id,
    subject: { key: t.subjectKey, label: t.subjectLabel, kind: t.subjectKind },
    relation: t.relation,
    object: { key: t.objectKey, label: t.objectLabel, kind: t.objectKind },
    value,
    sentence: t.sentence,
    paragraphId: t.paragraphId,
  };
}

/** The tuples as a graph: one node per entity, one edge per tuple. */
export function subgraph(tuples: LabelledTuple[]): ProvenanceDetails['graph'] {
  const nodes = new Map<string, { id: string; label: string; kind: string }>();
  for (const t of tuples) {
    nodes.set(t.subjectKey, { id: t.subjectKey, label: t.subjectLabel, kind: t.subjectKind });
    nodes.set(t.objectKey, { id: t.objectKey, label: t.objectLabel, kind: t.objectKind });
  }
  return { nodes: [...nodes.values()], edges: tuples.map((t) => ({ id: t.id, source: t.subjectKey, target: t.objectKey, relation: t.relation })) };
}
