import type { Database } from '../db/database.ts';
import { labelledTuples } from '../db/graph-views.ts';
import { graphOf } from '../graph/explore.ts';
import type { GraphData } from '../graph/view.ts';
import { paperWithStructure } from '../db/papers.ts';
import { paragraphInContext } from '../db/paragraphs.ts';
import { getRecord } from '../db/records.ts';
import { entityLinks } from '../db/entity-links.ts';
import { conflictFlags } from '../db/tuple-checks.ts';
import { type RecordReading, readRecord } from '../structure/recipe-view.ts';
import { cellAddress, cellAt, type ParsedTable, parseRowExternalId, rowText } from '../ingest/tables.ts';

/**
 * What the provenance panel shows for one cited item, per tab: **Source** (the paper's metadata; the paragraph in
 * context with its neighbours, the cited sentence's span), **Record** (the paper's structured record, or the
 * imported record an item is), **Tuples** and **Graph** (the graph tuples of the paragraph or the item, each with
 * its source sentence, and the subgraph they form). Read from the database by the ids an item's
 * provenance names, so any item of any stored answer can be opened.
 */
export interface ProvenanceRequest {
  paperId?: string | null;
  paragraphId?: string | null;
  /** The cited sentence's character span in the paragraph. */
  sentence?: { start: number; end: number } | null;
  tupleIds?: string[];
  recordId?: string | null;
  /** The cited table cell (`table:<id>#r<row>c<col>`), when the item's value is read from one. */
  cell?: string | null;
}

/** A table row's paragraph shown as its table: every row, the cited row and, when known, the cited cell. */
export interface ProvenanceTable {
  id: string;
  label: string | null;
  caption: string | null;
  /** Each column's header as a reader names it ("Peak power density (mW cm−2) 650 °C"). */
  columns: string[];
  rows: string[][];
  row: number;
  column: number | null;
  address: string | null;
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
    /** The table the paragraph is a row of. */
    table: ProvenanceTable | null;
  } | null;
  /** The record's fields, and the same record read as recipes and claims (the cited paragraph's first). */
  record: { title: string; kind: string; value: unknown; reading: RecordReading } | null;
  /** The item's tuples with their source sentences, and the subgraph they form. */
  graph: GraphData;
  /** The Wikidata items the subgraph's entities are linked to (lib/graph/entity-links.ts), by entity key. */
  links: Record<string, { qid: string; label: string | null; description: string | null }>;
  /** Tuples of papers found online that disagree with another paper's value (lib/graph/validate-tuples.ts), by tuple id. */
  conflicts: Record<string, string>;
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
  const graph = graphOf(tuples);
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
          table: rowTable(paper?.meta, context.paragraph.externalId, text, req.cell ?? null, span),
        }
      : null,
    record: imported
      ? {
          title: imported.title ?? imported.kind,
          kind: imported.kind,
          value: imported.data,
          reading: readRecord({ kind: imported.kind, value: imported.data }),
        }
      : paper?.structure
        ? {
            title: `Structured record (${paper.structure.extractor})`,
            kind: 'paper-structure',
            value: paper.structure.record,
            reading: readRecord({ kind: 'paper-structure', value: paper.structure.record }, req.paragraphId ?? null),
          }
        : null,
    graph,
    conflicts: Object.fromEntries(
      await conflictFlags(
        db,
        graph.tuples.map((t) => t.id),
      ),
    ),
    links: Object.fromEntries(
      [
        ...(
          await entityLinks(
            db,
            graph.nodes.map((n) => n.id),
          )
        ).values(),
      ]
        .filter((l) => l.status === 'linked' && l.qid)
        .map((l) => [l.entityKey, { qid: l.qid!, label: l.label, description: l.description }]),
    ),
  };
}

/** The table a row's paragraph belongs to, with the cited cell: named by address, else the one the cited span falls in. */
function rowTable(
  meta: unknown,
  externalId: string | null,
  text: string,
  cell: string | null,
  span: { start: number; end: number } | null,
): ProvenanceTable | null {
  const ref = parseRowExternalId(externalId);
  const tables = (meta as { tables?: ParsedTable[] } | null)?.tables;
  const table = ref && Array.isArray(tables) ? tables.find((t) => t?.id === ref.tableId) : undefined;
  if (!ref || !table?.rows?.[ref.row]) return null;
  const written = rowText(table, ref.row);
  let column: number | null = null;
  const named = cell ? /^table:(.+)#r(\d+)c(\d+)$/.exec(cell) : null;
  if (named && named[1] === table.id && Number(named[2]) === ref.row + 1) column = Number(named[3]) - 1;
  else if (span && written.text === text) column = cellAt(written.cells, span.start, span.end)?.column ?? null;
  if (column !== null && (column < 0 || column >= table.columns.length)) column = null;
  return {
    id: table.id,
    label: table.label,
    caption: table.caption,
    columns: table.columns.map((levels) => levels.join(' ')),
    rows: table.rows,
    row: ref.row,
    column,
    address: column === null ? null : cellAddress(table.id, ref.row, column),
  };
}
